/** The file pickers' one rule (Files and Calibration tabs): which names the page sends, and the drop zone. */

/** File names the page takes: the formats the server reads (it still decides by content). */
export const FILE_NAME = /\.(txt|md|markdown|docx|pdf)$/i;

/** The files the page may send, and the others (named to the user, never sent). */
export function splitFiles(files: File[]): { taken: File[]; refused: File[] } {
  return { taken: files.filter((f) => FILE_NAME.test(f.name)), refused: files.filter((f) => !FILE_NAME.test(f.name)) };
}

/** Calls `onFiles` with the files chosen in `input` or dropped on `zone`. */
export function wireDrop(zone: HTMLElement, input: HTMLInputElement, onFiles: (files: File[]) => void): void {
  input.addEventListener('change', () => onFiles([...(input.files ?? [])]));
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('dragging');
    onFiles([...(e.dataTransfer?.files ?? [])]);
  });
}
