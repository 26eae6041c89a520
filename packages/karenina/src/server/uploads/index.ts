export { UploadFormError, UploadNotFoundError, UploadTooLargeError } from "./errors.js";
export { type ReceivedFile, type ReceiveOptions, receiveMultipartFile } from "./multipart-file.js";
export { readTraceSet } from "./trace-sets.js";
export {
  DEFAULT_UPLOAD_MAX_BYTES,
  DEFAULT_UPLOAD_TTL_MS,
  type StoredUpload,
  type UploadInfo,
  UploadInfoSchema,
  type UploadKind,
  UploadStore,
  type UploadStoreOptions,
  uploadStoreFor,
  uploadsRoot,
} from "./upload-store.js";
