/**
 * Generated Spanish texts in a chat model's polished voice (no data set): the AI examples of a
 * language the calibration tests send without human texts of it. Each 40+ words, no two alike.
 */

const LUGARES = [
  'el mercado central',
  'la biblioteca municipal',
  'el parque del río',
  'la antigua estación',
  'el huerto comunitario',
  'la panadería del barrio',
  'el taller de cerámica',
];
const NOMBRES = ['Lucía', 'Mateo', 'Sofía', 'Diego', 'Valeria', 'Hugo', 'Martina', 'Pablo', 'Elena', 'Andrés', 'Carmen'];
const INICIOS = [
  'Hoy pasé la tarde en',
  'Esta mañana por fin visité',
  'Ayer por la noche di un paseo hasta',
  'El fin de semana me acerqué a',
  'Después del trabajo decidí explorar',
];
const MEDIOS = [
  '{n} me acompañó y hablamos de todo, desde libros hasta nuestros planes para el verano.',
  'El ambiente era tranquilo y acogedor, con unas {k} personas disfrutando del sol.',
  'Me di cuenta de que los pequeños detalles, como el aroma del pan recién hecho, hacían especial el lugar.',
  '{n} me señaló un mural que nunca había visto, lo que dio pie a una conversación encantadora.',
  'Perdimos la noción del tiempo durante unos {k} minutos, simplemente disfrutando del momento.',
];
const CIERRES = [
  'En definitiva, fue una experiencia sencilla pero significativa que me recordó la importancia de ir más despacio.',
  'Al mirar atrás, agradezco estos momentos de calma y a las personas que los comparten conmigo.',
  'Fue un recordatorio amable de que la alegría suele esconderse en los lugares más cotidianos.',
  'En resumen, el día me dejó renovado, inspirado y preparado para la semana que empieza.',
];

const pick = <T>(list: readonly T[], i: number, salt: number): T => list[(i * 7 + salt * 13 + Math.floor(i / list.length)) % list.length];

/** The `i`th Spanish AI-style note. */
export function spanishAiNote(i: number): string {
  const fill = (t: string) => t.replace('{n}', pick(NOMBRES, i, 1)).replace('{k}', String(10 + ((i * 17) % 40)));
  return [
    `${pick(INICIOS, i, 0)} ${pick(LUGARES, i, 2)}.`,
    fill(pick(MEDIOS, i, 3)),
    fill(pick(MEDIOS, i + 2, 4)),
    pick(CIERRES, i, 5),
  ].join(' ');
}

/** `count` distinct Spanish AI-style notes. */
export function spanishAiNotes(count: number): string[] {
  return Array.from({ length: count }, (_, i) => spanishAiNote(i));
}
