// Where uploaded images' bytes live when the database does not hold them: an S3-compatible bucket
// (IMAGES_S3_*), reached with signed requests (aws4fetch: SigV4 over fetch, no SDK). Without a
// bucket, the UploadedImage row holds the bytes (images.ts).
import { AwsClient } from "aws4fetch";

/** An object store for images: put once by name, read by name. */
export interface ImageBucket {
  put(name: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes, or null when the bucket has no such object. */
  get(name: string): Promise<Uint8Array | null>;
}

export interface S3BucketConfig {
  /** The service's address, e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000 (MinIO). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** A bucket addressed path-style (<endpoint>/<bucket>/<key>), which every S3-compatible service serves. */
export function s3ImageBucket(config: S3BucketConfig, fetchImpl: typeof fetch = fetch): ImageBucket {
  const client = new AwsClient({
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    region: config.region,
    service: "s3",
    retries: 0,
  });
  const base = `${config.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(config.bucket)}/images/`;
  const signed = (name: string, init: RequestInit) => client.sign(`${base}${encodeURIComponent(name)}`, init);
  return {
    async put(name, bytes, contentType) {
      const request = await signed(name, {
        method: "PUT",
        body: bytes as Uint8Array<ArrayBuffer>,
        headers: { "content-type": contentType, "content-length": String(bytes.length) },
      });
      const response = await fetchImpl(request);
      await response.body?.cancel();
      if (!response.ok) throw new Error(`The image bucket refused the upload (HTTP ${response.status})`);
    },
    async get(name) {
      const response = await fetchImpl(await signed(name, { method: "GET" }));
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`The image bucket did not answer the read (HTTP ${response.status})`);
      }
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}
