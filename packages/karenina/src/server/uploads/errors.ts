import { KareninaError } from "../../errors/index.js";

/** An upload is larger than the server accepts; nothing of it is kept. */
export class UploadTooLargeError extends KareninaError {
  override readonly name = "UploadTooLargeError";

  constructor(readonly maxBytes: number) {
    super(
      `the upload is larger than ${maxBytes} bytes (${Math.round(maxBytes / 1024 / 1024)} MB); split the file or send a smaller one`,
    );
  }
}

/** The request is not a `multipart/form-data` form with the file field, or the file is of a kind refused here. */
export class UploadFormError extends KareninaError {
  override readonly name = "UploadFormError";
}

/** No upload has this id (never made, deleted, expired, or of another kind). */
export class UploadNotFoundError extends KareninaError {
  override readonly name = "UploadNotFoundError";

  constructor(readonly id: string) {
    super(`upload ${id} not found (it may have expired); upload the file again`);
  }
}
