-- Custom migration (drizzle-kit generate --custom): group commit for quota charges.
-- charge_words decides a group of charges in one call: one statement and one commit for the group
-- instead of one each. Every charge is still its own conditional upsert, run in the order given
-- (the caller sorts by key id, so concurrent groups take row locks in the same order and cannot
-- deadlock): the month's words are added only while the total stays within the word limit. A
-- capped charge (lifetime calls, trial keys) first takes a transaction advisory lock on its key:
-- each statement of this VOLATILE function gets a fresh snapshot, so the lifetime sum it reads
-- includes every charge committed before the lock was granted.
-- Returns one row per charge, in order: the month's words after it (NULL when nothing was
-- charged) and, for capped charges, the lifetime calls.
CREATE OR REPLACE FUNCTION charge_words(
  p_key_ids integer[],
  p_periods text[],
  p_words integer[],
  p_word_limits integer[],
  p_call_limits integer[]
) RETURNS TABLE (charge_index integer, used_after integer, lifetime_calls integer)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  n integer;
BEGIN
  FOR n IN 1 .. coalesce(array_length(p_key_ids, 1), 0) LOOP
    charge_index := n;
    used_after := NULL;
    lifetime_calls := 0;
    IF p_call_limits[n] IS NOT NULL THEN
      -- 1128352844 = ASCII "CALL": the namespace of these per-key locks.
      PERFORM pg_advisory_xact_lock(1128352844, p_key_ids[n]);
    END IF;
    INSERT INTO monthly_usage AS m (key_id, period, words_used, calls)
    SELECT p_key_ids[n], p_periods[n], p_words[n], 1
    WHERE p_words[n] <= p_word_limits[n]
      AND (p_call_limits[n] IS NULL
        OR (SELECT coalesce(sum(u.calls), 0) FROM monthly_usage u WHERE u.key_id = p_key_ids[n]) < p_call_limits[n])
    ON CONFLICT (key_id, period) DO UPDATE
      SET words_used = m.words_used + excluded.words_used, calls = m.calls + 1
      WHERE m.words_used + excluded.words_used <= p_word_limits[n]
    RETURNING m.words_used INTO used_after;
    IF used_after IS NOT NULL AND p_call_limits[n] IS NOT NULL THEN
      SELECT coalesce(sum(u.calls), 0)::integer INTO lifetime_calls FROM monthly_usage u WHERE u.key_id = p_key_ids[n];
    END IF;
    RETURN NEXT;
  END LOOP;
END
$$;
