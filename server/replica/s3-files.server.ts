import type { ReplicaTarget } from "#domain/replica-url";
import {
  bucketAt,
  failed,
  getObjectToFile,
  listObjects,
  objectUrl,
  putObjectFile,
  type Offsite,
} from "../db/offsite.server";
import { safeKey, type FileStore, type ReplicaFile } from "./files.server";
import type { S3Access } from "./litestream.server";

/**
 * An S3 replica's files (issue 45.1): `<path>/files/<bucket>/<path>` and
 * `<path>/trash/<deleted at, ms>/<bucket>/<path>`, beside Litestream's `<path>/db/`, signed with
 * the BACKUP_S3_* keys as the off-site backups are (server/db/offsite.server.ts).
 */
export class BucketFiles implements FileStore {
  private readonly o: Offsite;
  private readonly base: string;

  constructor(target: Extract<ReplicaTarget, { kind: "s3" }>, s3: S3Access) {
    this.o = bucketAt(s3, target.bucket, "");
    this.base = target.prefix ? `${target.prefix}/` : "";
  }

  private live = (key: string) => `${this.base}files/${key}`;
  private trashed = (key: string, at: number) => `${this.base}trash/${at}/${key}`;

  put(key: string, file: string): Promise<void> {
    return putObjectFile(this.o, this.live(key), file);
  }

  async trash(key: string, at: number): Promise<void> {
    const copy = await this.o.client.fetch(objectUrl(this.o, this.trashed(key, at)), {
      method: "PUT",
      headers: {
        "x-amz-copy-source": `/${encodeURIComponent(this.o.bucket)}/${this.live(key).split("/").map(encodeURIComponent).join("/")}`,
      },
    });
    if (copy.status === 404) return;
    if (!copy.ok) throw await failed(copy, `moving ${key} to the replica's trash`);
    await copy.arrayBuffer();
    const gone = await this.o.client.fetch(objectUrl(this.o, this.live(key)), { method: "DELETE" });
    if (!gone.ok && gone.status !== 404) throw await failed(gone, `deleting ${key} from the replica`);
    await gone.arrayBuffer();
  }

  async list(): Promise<{ live: ReplicaFile[]; trash: ReplicaFile[] }> {
    // Only keys a stored file could have: a bucket may hold anything else.
    const live = (await listObjects(this.o, `${this.base}files/`))
      .map((r) => ({ key: r.key.slice(`${this.base}files/`.length), bytes: r.bytes, writtenAt: Date.parse(r.at) }))
      .filter((f) => safeKey(f.key));
    const trash: ReplicaFile[] = [];
    for (const r of await listObjects(this.o, `${this.base}trash/`)) {
      const m = /^(\d+)\/(.+)$/.exec(r.key.slice(`${this.base}trash/`.length));
      // The copy's own time is its removal's: when it was first written is not known (0).
      if (m && safeKey(m[2])) trash.push({ key: m[2], bytes: r.bytes, writtenAt: 0, deletedAt: Number(m[1]) });
    }
    return { live, trash };
  }

  fetch(entry: ReplicaFile, dest: string): Promise<void> {
    const key = entry.deletedAt === undefined ? this.live(entry.key) : this.trashed(entry.key, entry.deletedAt);
    return getObjectToFile(this.o, key, dest, 0o640);
  }

  async purgeTrash(before: number): Promise<number> {
    let purged = 0;
    for (const r of await listObjects(this.o, `${this.base}trash/`)) {
      const at = Number(/^(\d+)\//.exec(r.key.slice(`${this.base}trash/`.length))?.[1]);
      if (!(at < before)) continue;
      const res = await this.o.client.fetch(objectUrl(this.o, r.key), { method: "DELETE" });
      if (!res.ok && res.status !== 404) throw await failed(res, `deleting ${r.key} from the replica's trash`);
      await res.arrayBuffer();
      purged++;
    }
    return purged;
  }
}
