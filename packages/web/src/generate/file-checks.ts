/**
 * The browser's checks of a spreadsheet before it is uploaded (spec 07 §1.1 step 1), applied to a picked file
 * AND to a dropped one (the original checked only the picker). The server checks again; these only save a
 * useless upload and say what is wrong at once.
 */

/** The extensions the extraction wizard accepts. */
export const ALLOWED_EXTENSIONS = [".xlsx", ".xls", ".csv", ".tsv", ".txt"] as const;
/** The server's upload limit, 50 MB. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

const ALLOWED_MIME_TYPES = new Set([
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ms-excel",
  "text/csv",
  "application/csv",
  "text/tab-separated-values",
  "text/plain",
  "application/octet-stream",
]);

/** Types that are never a spreadsheet, whatever the name says (a renamed program or page). */
const DANGEROUS_MIME_TYPES = new Set([
  "application/x-msdownload",
  "application/x-executable",
  "application/x-sh",
  "application/javascript",
  "text/javascript",
  "text/html",
  "application/x-httpd-php",
]);

/** What the checks read of a file (a browser `File` fits). */
export interface FileFacts {
  readonly name: string;
  readonly size: number;
  readonly type: string;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot).toLowerCase();
}

/** Size in the units people read: "1.5 MB", "820 KB", "12 B". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** Why `file` cannot be uploaded, or null when it may be. */
export function uploadProblem(file: FileFacts): string | null {
  const extension = extensionOf(file.name);
  if (!(ALLOWED_EXTENSIONS as readonly string[]).includes(extension))
    return `Invalid file type. Allowed extensions: ${ALLOWED_EXTENSIONS.join(", ")}`;
  const type = file.type.toLowerCase();
  if (DANGEROUS_MIME_TYPES.has(type) || (type !== "" && !ALLOWED_MIME_TYPES.has(type)))
    return `Invalid file type "${file.type}": choose a spreadsheet (${ALLOWED_EXTENSIONS.join(", ")}).`;
  if (file.size > MAX_UPLOAD_BYTES)
    return `File too large (${formatBytes(file.size)}). The maximum is ${formatBytes(MAX_UPLOAD_BYTES)}.`;
  if (file.size === 0) return `"${file.name}" is empty: choose a file with a header row and questions.`;
  return null;
}
