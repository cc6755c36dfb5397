/**
 * Hand-written positive and negative examples for each explanation dimension, in English and
 * Spanish. Each positive example is built to lie far beyond its dimension's threshold (stock phrase
 * in every sentence, every sentence opening with a transition, identical lengths...), so that a
 * retrained model with somewhat different thresholds still agrees.
 */
import { AI_EN, AI_ES, HUMAN_EN, HUMAN_ES } from '../engine/texts';

export type Lang = 'en' | 'es';

export interface DimensionExample {
  positive: string;
  negative: string;
}

const zeroWidth = (t: string) => t.replace(/\b(\p{L}{2})(\p{L}{2,})/gu, '$1\u200B$2');

/** A formal report: no contractions, no first person, no questions (en). */
const FORMAL_EN = `The committee reviewed the proposal in considerable detail before reaching its decision. The financial implications of the project were examined by independent auditors. The environmental assessment identified several concerns regarding water quality. The final report recommended a phased approach to implementation over three years. The board approved the recommendation without amendment.`;
const FORMAL_ES = `El comité examinó la propuesta con considerable detalle antes de adoptar su decisión. Las implicaciones financieras del proyecto fueron analizadas por auditores independientes. La evaluación ambiental identificó varias preocupaciones relativas a la calidad del agua. El informe final recomendó una aplicación gradual durante tres años. La junta aprobó la recomendación sin enmiendas.`;

/** Vague prose with no numbers and no names. */
const VAGUE_EN = `There are many different ways to think about this topic. Some things can be helpful for people in many situations, while other things may not work as well as expected. It is often a good idea to consider the different options carefully and to think about what might happen in the future before making any kind of important decision about anything.`;
const VAGUE_ES = `Hay muchas formas diferentes de pensar en este tema. Algunas cosas pueden ser útiles para la gente en muchas situaciones, mientras que otras cosas pueden no funcionar tan bien como se espera. Suele ser una buena idea considerar las distintas opciones con cuidado y pensar en lo que podría pasar en el futuro antes de tomar cualquier decisión importante.`;

/** Dense with dates, numbers and names. */
const SPECIFIC_EN = `On 14 March 2019, Maria Lopez flew from Madrid to Chicago on Iberia flight 6275 with 212 other passengers. She paid 480 euros, landed at O'Hare at 15:40, and met her brother Carlos outside Terminal 5 before driving 30 miles north to Evanston.`;
const SPECIFIC_ES = `El 14 de marzo de 2019, María López voló de Madrid a Chicago en el vuelo 6275 de Iberia con 212 pasajeros. Pagó 480 euros, aterrizó en O'Hare a las 15:40 y se encontró con su hermano Carlos en la Terminal 5 antes de conducir 30 millas hasta Evanston.`;

/** The examples, by dimension id and language. */
export const EXAMPLES: Record<string, Record<Lang, DimensionExample>> = {
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
      positive: `La vieja biblioteca abría sus puertas muy temprano cada mañana. Los estudiantes se reunían junto a las ventanas para leer. La bibliotecaria caminaba entre los estantes con una sonrisa tranquila. La luz del sol avanzaba despacio por las mesas de madera. Todos trabajaban en silencio hasta que sonaba la campana. Entonces el edificio se vaciaba para una breve pausa.`,
      negative: `Llovió toda la noche. La vieja biblioteca abrió sus puertas muy temprano aquella mañana, mucho antes de que llegaran los estudiantes, las limpiadoras o incluso el conserje con su enorme manojo de llaves oxidadas desde el pueblo del otro lado del río. Nadie vino a leer. A mediodía la bibliotecaria se rindió, cerró la puerta principal con llave y volvió a casa andando entre los charcos, murmurando sobre los exámenes, el tiempo y el precio del café. Qué día más raro fue.`,
    },
  },
  predictable_vocabulary: {
    en: {
      positive: `I think that it is a good thing to be able to go out with your friends and have a good time, but it is also good to stay at home with the family and do nothing at all. When you have a lot of work, you need to make time for the people you love, and that is why I like to go home early.`,
      negative: FORMAL_EN,
    },
    es: {
      positive: `Creo que es muy bueno para todos salir con los amigos y pasar un buen rato, pero también es bueno estar en casa con la familia y no hacer nada. Cuando hay mucho trabajo, hay que tener tiempo para la gente que te gusta, y por eso me gusta ir a casa pronto todos los días con mi familia.`,
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
      positive: `However, the bridge was closed on Monday. Moreover, the ferry stopped running. Furthermore, the road through the hills was flooded. Consequently, the town was cut off. Therefore, food ran short by Friday. Nevertheless, people shared what they had. In conclusion, the week was hard.`,
      negative: `The bridge was closed on Monday. The ferry stopped running after that. The road through the hills flooded too. The town was cut off. Food ran short by Friday. People shared what they had. It was a hard week for everybody there.`,
    },
    es: {
      positive: `Sin embargo, el puente estaba cerrado el lunes. Además, el ferri dejó de funcionar. Asimismo, la carretera de la sierra se inundó. Por lo tanto, el pueblo quedó aislado. No obstante, la gente compartió lo que tenía. En conclusión, fue una semana dura.`,
      negative: `El puente estaba cerrado el lunes. El ferri dejó de funcionar después. La carretera de la sierra se inundó también. El pueblo quedó aislado del resto. La comida escaseó el viernes. La gente compartió lo que tenía. Fue una semana dura para todos allí.`,
    },
  },
  formal_register: {
    en: { positive: FORMAL_EN, negative: HUMAN_EN },
    es: { positive: FORMAL_ES, negative: HUMAN_ES },
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
