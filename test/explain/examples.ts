/**
 * Hand-written positive and negative examples for each explanation dimension, in English and
 * Spanish. Each positive example is built to lie far beyond its dimension's threshold (stock phrase
 * in every sentence, every sentence opening with a transition, identical lengths...), so that a
 * retrained model with somewhat different thresholds still agrees.
 */
import { AI_EN, AI_ES, HUMAN_EN, HUMAN_EN_2, HUMAN_ES } from '../engine/texts';
import { countWords } from '../../src/contract';
import { MIN_STYLE_WORDS } from '../../src/detector/explain/dimensions';

export type Lang = 'en' | 'es';

export interface DimensionExample {
  positive: string;
  negative: string;
}

const zeroWidth = (t: string) => t.replace(/\b(\p{L}{2})(\p{L}{2,})/gu, '$1\u200B$2');

/** A formal report (over 120 words): no contractions, no first person, no questions. */
const FORMAL_EN = `The committee conducted a comprehensive review of the proposal before reaching its decision. The financial implications of the project were carefully examined by independent auditors to ensure transparency. The environmental assessment highlighted significant concerns regarding water quality in the surrounding area. The final report recommended a phased approach to implementation over a period of three years. Each phase will be subject to a thorough and independent review before the next phase begins. The board approved the recommendation without amendment at its quarterly meeting. Implementation will be overseen by a dedicated steering group composed of senior officials from the relevant departments. Progress reports will be published at regular intervals throughout the duration of the programme. Stakeholders will be consulted at each stage of the process to foster collaboration and accountability.`;
const FORMAL_ES = `El comité examinó la propuesta con considerable detalle antes de adoptar su decisión. Las implicaciones financieras del proyecto fueron analizadas por auditores independientes. La evaluación ambiental identificó varias preocupaciones relativas a la calidad del agua en la cuenca circundante. El informe final recomendó una aplicación gradual durante un periodo de tres años. Cada fase será objeto de una revisión independiente antes del comienzo de la siguiente. La junta aprobó la recomendación sin enmiendas en su reunión trimestral. La aplicación será supervisada por un grupo de dirección compuesto por altos funcionarios de los departamentos competentes. Los informes de situación se publicarán periódicamente durante toda la duración del programa. Las partes interesadas serán consultadas en cada etapa del proceso. Todos los documentos pertinentes se pondrán a disposición del público previa solicitud.`;

/** Casual Spanish, over 120 words, with questions, first person and slang. */
const CHATTY_ES = `${HUMAN_ES} Bueno, ¿y tú qué tal? Yo sigo con lo mío, jaja. Mi hermano dice que soy un desastre y la verdad es que tiene razón, pero qué le vamos a hacer. El sábado quedamos en el bar de siempre, ¿te apuntas? Avísame y te guardo sitio, que luego se llena.`;

/** Vague prose with no numbers and no names (over 120 words). */
const VAGUE_EN = `There are many different ways to think about this topic. Some things can be helpful for people in many situations, while other things may not work as well as expected. It is often a good idea to consider the different options carefully and to think about what might happen in the future before making any kind of important decision about anything. In general, people tend to have their own views on these matters, and those views can change over time depending on various circumstances. What works well in one situation may not work well in another, so it is usually wise to stay flexible and open to new ideas. Everyone can learn something useful from the experiences of others. That is something worth keeping in mind whenever a new choice comes along.`;
const VAGUE_ES = `Hay muchas formas diferentes de pensar en este tema. Algunas cosas pueden ser útiles para la gente en muchas situaciones, mientras que otras cosas pueden no funcionar tan bien como se espera. Suele ser una buena idea considerar las distintas opciones con cuidado y pensar en lo que podría pasar en el futuro antes de tomar cualquier decisión importante. En general, cada persona tiene su propia opinión sobre estas cuestiones, y esas opiniones pueden cambiar con el tiempo según las circunstancias. Lo que funciona bien en una situación puede no funcionar en otra, así que conviene mantener una actitud abierta ante las ideas nuevas. Todo el mundo puede aprender algo útil de la experiencia de los demás. Es algo que conviene recordar cada vez que aparece una nueva elección. Además, es importante destacar que las comunidades desempeñan un papel fundamental a la hora de superar estos desafíos. En conclusión, es fundamental abordar estos desafíos de manera integral, fomentando la colaboración y el diálogo entre todos los actores involucrados.`;

/** Dense with dates, numbers and names (over 120 words). */
const SPECIFIC_EN = `On 14 March 2019, Maria Lopez flew from Madrid to Chicago on Iberia flight 6275 with 212 other passengers. She paid 480 euros, landed at O'Hare at 15:40, and met her brother Carlos outside Terminal 5 before driving 30 miles north to Evanston. Two days later, on 16 March, they visited the Art Institute on Michigan Avenue, where Carlos bought a 25-dollar print of Seurat's painting for his flat in Rogers Park. Maria stayed until 2 April, then took Amtrak train 49 to New York, arriving at Penn Station 19 hours later, and flew back to Madrid with Delta on 5 April. Her boss, Elena Ruiz, had approved 21 days of leave in January, and the whole trip cost her 1,940 euros.`;
const SPECIFIC_ES = `El 14 de marzo de 2019, María López voló de Madrid a Chicago en el vuelo 6275 de Iberia con 212 pasajeros. Pagó 480 euros, aterrizó en O'Hare a las 15:40 y se encontró con su hermano Carlos en la Terminal 5 antes de conducir 30 millas hasta Evanston. Dos días después, el 16 de marzo, visitaron el Art Institute en Michigan Avenue, donde Carlos compró por 25 dólares una lámina de Seurat para su piso de Rogers Park. María se quedó hasta el 2 de abril, tomó el tren 49 de Amtrak a Nueva York, llegó a Penn Station 19 horas después y volvió a Madrid con Delta el 5 de abril. Su jefa, Elena Ruiz, le había aprobado 21 días de vacaciones en enero, y el viaje completo le costó 1.940 euros.`;

/** The examples as written, by dimension id and language (see EXAMPLES). */
const WRITTEN: Record<string, Record<Lang, DimensionExample>> = {
  lexical_fingerprint: {
    en: { positive: AI_EN, negative: HUMAN_EN },
    es: {
      positive: `Hola, me llamo Ana y soy una persona muy activa y dinámica. Me encanta estar en constante movimiento y siempre estoy buscando nuevos retos y oportunidades para aprender y crecer. En mi tiempo libre, disfruto haciendo deporte y practicando diferentes actividades al aire libre, como correr, caminar y montar en bicicleta. También me gusta mucho viajar y conocer nuevos lugares y culturas, así que siempre estoy planeando mis próximas aventuras. Además, me encanta pasar tiempo con mi familia y mis amigos, ya que son muy importantes para mí.`,
      negative: HUMAN_ES,
    },
  },
  low_burstiness: {
    en: {
      positive: `Technology plays a crucial role in modern education today. Students can access valuable learning resources from anywhere. Teachers can foster collaboration through innovative digital platforms. Schools must ensure that every learner benefits from these tools. Parents should also support the responsible use of technology. This balanced approach will empower the next generation of learners.`,
      negative: `Rain fell all night. The old library opened its doors early that morning, long before the students, the cleaners or even the caretaker with his enormous ring of rusty keys had arrived from the village across the river. Nobody came to read. By noon the librarian gave up, locked the front door and walked home through the puddles, muttering about exams, the weather and the price of coffee. What an odd day it was.`,
    },
    es: {
      // Uniform sentences in the register of AI text: the aligned Spanish scale (2026-11-26) reads the
      // earlier positive, a uniform but plainly human library scene, as likely human (nothing highlighted).
      positive: `La tecnología desempeña un papel fundamental en la educación actual. Los estudiantes pueden acceder a recursos valiosos desde cualquier lugar. Los docentes pueden fomentar la colaboración mediante plataformas digitales. Las escuelas deben garantizar que cada alumno aproveche estas herramientas. Las familias también deben apoyar un uso responsable de la tecnología. Este enfoque equilibrado permitirá empoderar a la próxima generación.`,
      negative: `Llovió toda la noche. La vieja biblioteca abrió sus puertas muy temprano aquella mañana, mucho antes de que llegaran los estudiantes, las limpiadoras o incluso el conserje con su enorme manojo de llaves oxidadas desde el pueblo del otro lado del río. Nadie vino a leer. A mediodía la bibliotecaria se rindió, cerró la puerta principal con llave y volvió a casa andando entre los charcos, murmurando sobre los exámenes, el tiempo y el precio del café. Qué día más raro fue.`,
    },
  },
  predictable_vocabulary: {
    // Few distinct words, repeated (low moving-average type-token ratio).
    en: {
      positive: `It is good to be good to the people you know. It is good to be with the people you love, and it is good to do good things for the people around you. When the people you know are good to you, it is good to be good to them too, and it is good to do that every day. The people you love are the people you know, and the people you know are good people.`,
      negative: FORMAL_EN,
    },
    es: {
      positive: `Es bueno ser bueno con la gente que conoces. Es bueno estar con la gente que quieres, y es bueno hacer cosas buenas por la gente que está cerca. Cuando la gente que conoces es buena contigo, es bueno ser bueno con la gente, y es bueno hacer eso todos los días. La gente que quieres es la gente que conoces, y la gente que conoces es buena gente.`,
      negative: FORMAL_ES,
    },
  },
  stock_phrases: {
    en: {
      positive: `In today's fast-paced world, technology plays a crucial role in our lives. It is important to note that digital tools foster collaboration and enhance productivity. These innovative solutions empower individuals to navigate the complexities of a dynamic landscape. Ultimately, leveraging comprehensive and robust strategies will unlock a myriad of transformative opportunities.`,
      negative: HUMAN_EN,
    },
    es: {
      positive: `En la actualidad, la tecnología juega un papel crucial en nuestras vidas. Es importante destacar que las herramientas digitales fomentan la colaboración y permiten optimizar la productividad. Cabe destacar que estas soluciones innovadoras brindan una amplia gama de oportunidades. Sin lugar a dudas, es fundamental abordar este panorama de manera efectiva para garantizar el bienestar.`,
      negative: HUMAN_ES,
    },
  },
  transition_overuse: {
    en: {
      positive: `However, the bridge was closed on Monday. Moreover, the ferry stopped running. Furthermore, the road through the hills was flooded. Consequently, the town was cut off. Therefore, food ran short by Friday. Nevertheless, people shared what they had. In conclusion, the week was hard. Moreover, it is important to note that strong communities play a crucial role in overcoming such challenges.`,
      negative: `The bridge was closed on Monday. The ferry stopped running after that. The road through the hills flooded too. The town was cut off. Food ran short by Friday. People shared what they had. It was a hard week for everybody there.`,
    },
    es: {
      positive: `Sin embargo, el puente estaba cerrado el lunes. Además, el ferri dejó de funcionar. Asimismo, la carretera de la sierra se inundó. Por lo tanto, el pueblo quedó aislado. No obstante, la gente compartió lo que tenía. En conclusión, fue una semana dura.`,
      negative: `El puente estaba cerrado el lunes. El ferri dejó de funcionar después. La carretera de la sierra se inundó también. El pueblo quedó aislado del resto. La comida escaseó el viernes. La gente compartió lo que tenía. Fue una semana dura para todos allí.`,
    },
  },
  formal_register: {
    // Rates need at least 120 words: both examples are longer.
    en: { positive: FORMAL_EN, negative: `${HUMAN_EN} ${HUMAN_EN_2}` },
    es: { positive: FORMAL_ES, negative: CHATTY_ES },
  },
  repetitive_openings: {
    en: {
      positive: `The city has grown quickly over the past ten years. The city has built new schools and hospitals. The city has also improved its public transport network. The city has attracted many young families. The city has become a popular destination for tourists.`,
      negative: HUMAN_EN,
    },
    es: {
      positive: `La ciudad ha crecido mucho en los últimos diez años. La ciudad ha construido nuevas escuelas y hospitales. La ciudad ha mejorado también su red de transporte público. La ciudad ha atraído a muchas familias jóvenes. La ciudad se ha convertido en un destino popular para los turistas.`,
      negative: HUMAN_ES,
    },
  },
  chat_formatting: {
    en: {
      positive: `## Key Benefits of Remote Work\n\n- **Flexibility**: workers can choose their own hours.\n- **Savings**: there are no daily commute costs at all.\n- **Focus**: there are fewer interruptions than in the office.\n\n## Main Drawbacks to Consider\n\n- **Isolation**: there is much less contact with colleagues.\n- **Boundaries**: work and home life blur together easily.`,
      negative: HUMAN_EN,
    },
    es: {
      positive: `## Ventajas principales del teletrabajo\n\n- **Flexibilidad**: cada trabajador puede elegir su horario.\n- **Ahorro**: no hay gastos de transporte todos los días.\n- **Concentración**: hay menos interrupciones que en la oficina.\n\n## Inconvenientes que hay que tener en cuenta\n\n- **Aislamiento**: hay mucho menos contacto con los compañeros.\n- **Límites**: el trabajo y la casa se mezclan con facilidad.`,
      negative: HUMAN_ES,
    },
  },
  uniform_paragraphs: {
    en: {
      positive: `The morning market opens at six, when farmers arrive with crates of vegetables, fruit and fresh eggs from the surrounding villages.\n\nBy eight the square is crowded with shoppers comparing prices, children chasing pigeons and old men drinking coffee at the tables.\n\nAround noon the stalls begin to close, the crates are stacked onto trucks and the sweepers clear the cobbled square again.`,
      negative: `The morning market opens at six, when farmers arrive with crates of vegetables, fruit and fresh eggs from the villages.\n\nBy eight the square is crowded with shoppers comparing prices, children chasing pigeons, old men drinking coffee at the tables outside the bakery, tourists taking photographs of everything they see, street musicians tuning their guitars, and the mayor himself wandering between the stalls shaking hands with anyone who will stop long enough to listen to his plans for the new car park behind the church.\n\nAround noon the stalls begin to close, the crates go back onto the trucks, and the sweepers clear the square.`,
    },
    es: {
      positive: `El mercado de la mañana abre a las seis, cuando los agricultores llegan con cajas de verduras, fruta y huevos frescos de los pueblos.\n\nA las ocho la plaza está llena de gente que compara precios, de niños que persiguen palomas y de viejos que toman café.\n\nHacia el mediodía los puestos empiezan a cerrar, las cajas se cargan en los camiones y los barrenderos limpian la plaza otra vez.`,
      negative: `El mercado de la mañana abre a las seis, cuando los agricultores llegan con cajas de verduras, fruta y huevos frescos.\n\nA las ocho la plaza está llena de gente que compara precios, de niños que persiguen palomas, de viejos que toman café en las mesas de la panadería, de turistas que hacen fotos de todo lo que ven, de músicos callejeros que afinan sus guitarras y del propio alcalde, que pasea entre los puestos estrechando la mano de cualquiera que se pare el tiempo suficiente para escuchar sus planes sobre el nuevo aparcamiento detrás de la iglesia.\n\nHacia el mediodía los puestos empiezan a cerrar y los barrenderos limpian la plaza con calma.`,
    },
  },
  low_specificity: {
    en: { positive: VAGUE_EN, negative: SPECIFIC_EN },
    es: { positive: VAGUE_ES, negative: SPECIFIC_ES },
  },
  hedged_framing: {
    en: {
      positive: `Remote work has pros and cons. On the other hand, some argue that offices build team spirit, while others believe home is more productive. Both sides have a point, and the right choice depends on the job. There is no one-size-fits-all answer; it is about striking a balance.`,
      negative: HUMAN_EN,
    },
    es: {
      positive: `El teletrabajo tiene ventajas y desventajas. Por un lado, algunos argumentan que la oficina crea espíritu de equipo; por otro lado, otros sostienen que en casa se rinde más. Ambas perspectivas tienen razón y todo depende de cada puesto. Se trata de encontrar un equilibrio.`,
      negative: HUMAN_ES,
    },
  },
  obfuscation: {
    en: { positive: zeroWidth(AI_EN), negative: AI_EN },
    es: { positive: zeroWidth(AI_ES), negative: AI_ES },
  },
};

/**
 * Style dimensions judge only texts of MIN_STYLE_WORDS words or more, so a short positive example
 * is repeated as further paragraphs (more of the same style) until it is long enough.
 */
function longEnough(text: string): string {
  let out = text;
  while (countWords(out) < MIN_STYLE_WORDS) out += `\n\n${text}`;
  return out;
}

/** The examples, by dimension id and language: positives at least MIN_STYLE_WORDS long. */
export const EXAMPLES: Record<string, Record<Lang, DimensionExample>> = Object.fromEntries(
  Object.entries(WRITTEN).map(([id, byLang]) => [
    id,
    Object.fromEntries(
      Object.entries(byLang).map(([lang, ex]) => [lang, { positive: longEnough(ex.positive), negative: ex.negative }]),
    ) as Record<Lang, DimensionExample>,
  ]),
);
