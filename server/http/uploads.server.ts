import { MalformedUpload, receiveMultipart, type MultipartResult, type UploadRules } from "../storage/multipart.server";
import { createStorage } from "../storage/storage.server";

/**
 * The one door every upload comes through (issue 41.3): the booking's files, the console's
 * template files and the studio's pictures. The multipart body is read as it streams into
 * temporary files of the data folder, within the caller's rules; the service that stores them gets
 * what was received, never the Request. Null: the body is not well-formed multipart or was cut off
 * (nothing of it is kept). A full disk throws `StorageFullError`.
 */
export async function receiveUpload(
  request: Request,
  dataDir: string,
  rules: UploadRules,
): Promise<MultipartResult | null> {
  try {
    return await receiveMultipart(
      { body: request.body, contentType: request.headers.get("content-type") ?? "" },
      { tmpDir: createStorage(dataDir).uploadTmpDir, ...rules },
    );
  } catch (error) {
    if (error instanceof MalformedUpload) return null;
    throw error;
  }
}
