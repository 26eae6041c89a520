import { KareninaError } from "../../errors/index.js";
import { ApiError } from "../core/index.js";
import { UploadFormError, UploadNotFoundError, UploadTooLargeError } from "../uploads/index.js";

/** The API error of an upload failure (413 too large, 400 bad form, 404 unknown id); other errors pass through. */
export function uploadApiError(error: unknown): unknown {
  if (error instanceof UploadTooLargeError) return new ApiError(413, "payload_too_large", error.message);
  if (error instanceof UploadNotFoundError) return new ApiError(404, "not_found", error.message);
  if (error instanceof UploadFormError) return ApiError.badRequest(error.message);
  return error;
}

/** Runs `work`, turning upload failures and library errors (`KareninaError`) into API errors. */
export async function asApiErrors<T>(work: () => Promise<T>, libraryStatus: 400 | 422 = 400): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const mapped = uploadApiError(error);
    if (mapped instanceof ApiError) throw mapped;
    if (KareninaError.isInstance(error)) {
      throw new ApiError(
        libraryStatus,
        libraryStatus === 400 ? "bad_request" : "invalid_request",
        error.message,
      );
    }
    throw error;
  }
}
