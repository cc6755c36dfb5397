ALTER TABLE `charge_holds` ADD `attempt` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `charge_holds` ADD `body_check` text;