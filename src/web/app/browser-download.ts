// Saves a Blob as a file through a temporary link: the browser's own download, no new window.
export function downloadFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled, or the download could find no file.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
