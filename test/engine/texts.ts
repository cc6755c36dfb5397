/** Hand-written texts shared by the engine and explanation tests. */

/** About 100 words of stock LLM essay prose (English). */
export const AI_EN = `In today's fast-paced world, technology plays a crucial role in shaping how we learn and communicate. Moreover, it is important to note that digital tools foster collaboration and enhance productivity across various industries. Furthermore, these innovations empower individuals to navigate the complexities of modern life. Additionally, educators must leverage comprehensive strategies to ensure that students benefit from these transformative resources. However, it is essential to strike a balance between screen time and meaningful human interaction. Ultimately, embracing technology responsibly will unlock new opportunities and foster a more inclusive and dynamic society for everyone.`;

/** Casual first-person English with names, numbers and contractions. */
export const HUMAN_EN = `So yesterday I fixed my bike at last. Took me three hours, honestly, because the chain kept slipping off and I'd lost the little spring thing somewhere under the sofa. My neighbour Dave came over with a beer and laughed at me. Whatever. It works now! I rode it to Tesco on Baker Street and back, about 4 miles, and didn't fall off once. Next weekend I'm gonna tackle the brakes, which squeal like a dying seagull every time I stop at the lights near the station.`;

/** A second casual English text. */
export const HUMAN_EN_2 = `lol ok so my cat knocked my coffee onto the laptop this morning. Keyboard's sticky now and the trackpad does whatever it wants. Tried the rice thing, dunno if that even works for laptops tbh. My brother says I should've bought the insurance. Yeah, thanks Mike, very helpful. Anyway I'm writing this on my phone at the bus stop on 5th and Main, which is why it's probably full of typos.`;

/** Stock LLM essay prose (Spanish). */
export const AI_ES = `En la actualidad, la educación desempeña un papel fundamental en el desarrollo de la sociedad. Además, es importante destacar que la tecnología ofrece una amplia gama de herramientas innovadoras que permiten optimizar el proceso de aprendizaje. Asimismo, los docentes deben fomentar el pensamiento crítico y promover la colaboración entre los estudiantes. Por otro lado, es fundamental garantizar que todos los alumnos tengan acceso a estos recursos de manera equitativa. En conclusión, la integración de la tecnología en el aula representa una oportunidad invaluable para potenciar el bienestar y el crecimiento integral de las futuras generaciones.`;

/** Casual Spanish with names, numbers and slang. */
export const HUMAN_ES = `jajaja tío no te lo vas a creer, ayer se me cayó el móvil al váter en casa de mi abuela y tuve que meter la mano jajaja. Mi prima Lucía casi se muere de risa. Lo he metido en arroz toda la noche y parece que va, pero la pantalla hace cosas raras. Mañana lo llevo a la tienda de la calle Alcalá a ver qué me dicen, porque no tengo pasta para uno nuevo. Qué asco todo, de verdad.`;
