/** Spanish catalogue: the same keys as en.ts. */
import type { Catalogue } from './en';

export const es: Catalogue = {
  errors: {
    missing_api_key: 'Falta la clave de API: envíala en la cabecera X-API-Key.',
    invalid_api_key: 'La clave de API no existe o ha sido revocada.',
    invalid_json: 'El cuerpo de la petición no es JSON válido.',
    invalid_request: 'La petición no es válida: {detail}.',
    text_required: 'El campo "text" es obligatorio y debe ser una cadena de texto.',
    text_too_short: 'El texto es demasiado corto: se necesitan al menos {min} palabras y se han encontrado {count}.',
    invalid_sensitivity: 'El campo "sensitivity" debe ser uno de: conservative, balanced, aggressive.',
    payload_too_large: 'El cuerpo de la petición supera el límite de {limit} bytes.',
    unsupported_media_type: 'Content-Type no admitido: envía application/json (un texto) o multipart/form-data (archivos).',
    quota_exceeded:
      'Cuota mensual de palabras agotada: esta petición necesita {words} palabras y quedan {remaining} de {limit}. La cuota se renueva el {reset}.',
    trial_calls_exhausted:
      'Esta clave de prueba ha usado sus {limit} llamadas. Solicita una clave de un plan gratuito o de pago.',
    not_found: 'Aquí no hay nada: {method} {path} no es una ruta de esta API.',
    method_not_allowed: '{method} no está permitido en {path}. Permitidos: {allow}.',
    internal_error: 'Se ha producido un error inesperado. Ha quedado registrado; inténtalo de nuevo.',
    too_many_files: 'Demasiados archivos: como máximo {limit} por petición.',
    file_too_large: 'El archivo supera el límite de {limit} bytes.',
    unsupported_format: 'Formato de archivo no admitido: envía TXT, MD, DOCX o PDF.',
    corrupt_file: 'El archivo está dañado y no se ha podido leer.',
    encrypted_pdf: 'El PDF está cifrado; quita la contraseña e inténtalo de nuevo.',
    no_text: 'No se ha podido extraer texto del archivo (¿es una imagen escaneada?).',
  },
};
