import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { ReplicaTarget } from "#domain/replica-url";
import type { Logger } from "pino";
import {
  type Positions,
  type S3Access,
  caughtUp,
  freeLoopbackPort,
  litestreamBinary,
  litestreamConfig,
  litestreamEnv,
  positionsOf,
  recordPid,
  replicaFolder,
  stopLeftover,
  writeConfig,
} from "./litestream.server";

/**
 * The replicator (issue 45.1): Litestream started and supervised by the server, restarted with
 * backoff when it dies (1 s, doubling to a minute; back to 1 s once it has run a minute), its
 * warnings and errors in the server's log, its progress read from its metrics every second. What
 * the console's Backups card shows and /healthz judges (`replicaStatus`, `replicaProblem`).
 */
export type ReplicaStatus = {
  target: string;
  state: "starting" | "replicating" | "behind" | "down";
  /** When the replica last held everything (ISO), or null before the first time. */
  lastSyncAt: string | null;
  /** How long the replica has been missing something, in seconds (0 when caught up). */
  lagSeconds: number;
  /** Litestream's restarts since the server started. */
  restarts: number;
  lastError: string | null;
  lastErrorAt: string | null;
  /** Stored files waiting to be copied to the replica, and the last failure to copy one. */
  files: { pending: number; lastError: string | null };
  /** The console's banner: why replication is failing, or null. */
  failing: string | null;
};

const POLL_MS = 1_000;
const LAG_LIMIT_MS = 60_000;
const UNHEALTHY_AFTER_MS = 5 * 60_000;
const MAX_BACKOFF_MS = 60_000;

type FilesProgress = () => { pending: number; lastError: string | null };

let current: Replicator | null = null;

class Replicator {
  private child: ChildProcess | null = null;
  private stopping = false;
  private restarts = 0;
  private inARow = 0;
  private startedAt = 0;
  /** Everything the database held up to this time is on the replica (the start, before a first sync). */
  private syncedThrough: number;
  /** Since when the lag has been over a minute, or null. */
  private overSince: number | null = null;
  private lastSyncAt: number | null = null;
  /** What Litestream had taken at each poll not yet on the replica: where `syncedThrough` moves to. */
  private taken: { at: number; shadow: [number, number] }[] = [];
  private replicaAt: [number, number] | null = null;
  private lastError: { message: string; at: number } | null = null;
  private state: ReplicaStatus["state"] = "starting";
  private poll: NodeJS.Timeout | null = null;
  private restart: NodeJS.Timeout | null = null;
  private port = 0;
  private exited: Promise<void> = Promise.resolve();
  files: FilesProgress = () => ({ pending: 0, lastError: null });

  constructor(
    private readonly dataDir: string,
    private readonly target: ReplicaTarget,
    private readonly s3: S3Access | null,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.syncedThrough = now();
  }

  async start(): Promise<void> {
    if (this.stopping) return;
    this.port = await freeLoopbackPort();
    const configFile = path.join(replicaFolder(this.dataDir), "litestream.json");
    stopLeftover(this.dataDir, configFile);
    writeConfig(
      this.dataDir,
      "litestream.json",
      litestreamConfig(this.dataDir, this.target, this.s3, `127.0.0.1:${this.port}`),
    );
    const child = spawn(litestreamBinary(), ["replicate", "-config", configFile, "-no-expand-env"], {
      env: litestreamEnv(this.s3),
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    this.startedAt = this.now();
    this.exited = new Promise((resolve) => child.once("close", () => resolve()));
    child.once("error", (error) => this.noteError(`Litestream could not start: ${error.message}`));
    recordPid(this.dataDir, child);
    for (const stream of [child.stdout, child.stderr]) {
      let rest = "";
      stream.on("data", (chunk: Buffer) => {
        const lines = (rest + chunk.toString()).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines) this.onLine(line);
      });
    }
    child.once("close", (code, signal) => this.onExit(code, signal));
    this.poll ??= setInterval(() => void this.readProgress(), POLL_MS);
    this.poll.unref();
  }

  private onLine(line: string): void {
    const level = /\blevel=(\w+)/.exec(line)?.[1];
    const msg = /\bmsg=("(?:[^"\\]|\\.)*"|\S+)/.exec(line)?.[1]?.replace(/^"|"$/g, "") ?? line;
    const error = /\berror=("(?:[^"\\]|\\.)*"|\S+)/.exec(line)?.[1]?.replace(/^"|"$/g, "");
    // Errors are problems (the console shows the last); a warning, such as a new generation begun
    // after an unclean stop, is only logged.
    if (level === "ERROR") this.noteError(error ? `${msg}: ${error}` : msg);
    else if (level === "WARN") this.log.warn(`[replica] Litestream: ${error ? `${msg}: ${error}` : msg}`);
    else if (/^replicating to|^initialized db/.test(msg)) this.log.info(`[replica] ${msg}`);
  }

  private noteError(message: string): void {
    this.lastError = { message, at: this.now() };
    this.log.warn(`[replica] ${message}`);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.child = null;
    if (this.stopping) return;
    this.state = "down";
    if (this.now() - this.startedAt > MAX_BACKOFF_MS) this.inARow = 0;
    const wait = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** this.inARow);
    this.inARow++;
    this.restarts++;
    this.noteError(`Litestream stopped (${signal ?? `exit ${code}`}); starting it again in ${wait / 1000} s`);
    this.restart = setTimeout(() => {
      this.restart = null;
      this.start().catch((error: Error) => this.noteError(`Litestream could not start: ${error.message}`));
    }, wait);
    this.restart.unref();
  }

  private async readProgress(): Promise<void> {
    const now = this.now();
    if (this.child) {
      try {
        const res = await fetch(`http://127.0.0.1:${this.port}/metrics`, { signal: AbortSignal.timeout(900) });
        const positions = positionsOf(await res.text());
        if (positions) this.progressed(positions, now);
      } catch {
        // Not listening yet, or busy: the lag keeps growing until it answers.
      }
    }
    const lag = now - this.syncedThrough;
    // Over a minute since the moment the replica stopped having everything, plus that minute.
    if (lag > LAG_LIMIT_MS) this.overSince ??= this.syncedThrough + LAG_LIMIT_MS;
    else this.overSince = null;
  }

  /**
   * The replica's position against what Litestream has taken: caught up, everything is there; else
   * it holds what Litestream had taken at the last poll whose position it has reached. So a replica
   * that keeps up under steady writes, a step behind at every poll, has a lag of a poll or two, not
   * one that grows for as long as the writes go on.
   */
  private progressed(p: Positions, now: number): void {
    if (p.replica && (!this.replicaAt || p.replica[0] !== this.replicaAt[0] || p.replica[1] !== this.replicaAt[1])) {
      this.replicaAt = p.replica;
      this.lastSyncAt = now;
    }
    if (caughtUp(p)) {
      this.syncedThrough = now;
      this.lastSyncAt ??= now;
      this.taken = [];
      this.state = "replicating";
      return;
    }
    this.taken.push({ at: now, shadow: p.shadow });
    const replica = p.replica;
    if (replica) {
      const reached = this.taken.filter((t) => caughtUp({ shadow: t.shadow, replica }));
      if (reached.length) {
        this.syncedThrough = Math.max(this.syncedThrough, reached.at(-1)!.at);
        this.taken = this.taken.filter((t) => t.at > this.syncedThrough);
      }
    }
    // At most ten minutes of polls are kept: older ones say no more than the lag already does.
    if (this.taken.length > 600) this.taken.splice(0, this.taken.length - 600);
    this.state = this.lastSyncAt === null ? "starting" : "behind";
  }

  status(): ReplicaStatus {
    const now = this.now();
    const lag = Math.max(0, now - this.syncedThrough);
    const files = this.files();
    let failing: string | null = null;
    const reason = this.lastError?.message ?? "no answer from Litestream";
    if (this.inARow >= 3) failing = `Litestream keeps stopping (${this.restarts} restarts): ${reason}`;
    else if (lag > LAG_LIMIT_MS) failing = `the replica is ${Math.round(lag / 1000)} s behind: ${reason}`;
    else if (files.lastError && files.pending > 0)
      failing = `${files.pending} stored file${files.pending === 1 ? "" : "s"} not copied yet: ${files.lastError}`;
    return {
      target: this.target.display,
      state: this.state,
      lastSyncAt: this.lastSyncAt === null ? null : new Date(this.lastSyncAt).toISOString(),
      // Under two seconds is the replica keeping up (a change waits for the next half-second sync).
      lagSeconds: lag < 2_000 ? 0 : Math.round(lag / 1000),
      restarts: this.restarts,
      lastError: this.lastError?.message ?? null,
      lastErrorAt: this.lastError ? new Date(this.lastError.at).toISOString() : null,
      files,
      failing,
    };
  }

  /** /healthz's part: failing once the replica has been more than 60 s behind for 5 minutes. */
  problem(): string | null {
    if (this.overSince === null || this.now() - this.overSince < UNHEALTHY_AFTER_MS) return null;
    const lag = Math.round((this.now() - this.syncedThrough) / 1000);
    return `the replica ${this.target.display} has been more than 60 s behind for 5 minutes (${lag} s now)`;
  }

  /** Stops Litestream (SIGTERM: it ships what it has taken first), at most `graceMs`. */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopping = true;
    if (this.poll) clearInterval(this.poll);
    if (this.restart) clearTimeout(this.restart);
    const child = this.child;
    if (!child) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Starts replicating `dataDir`'s database to `target`; the status and health read it from now on. */
export async function startReplication(opts: {
  dataDir: string;
  target: ReplicaTarget;
  s3: S3Access | null;
  log: Logger;
  files?: FilesProgress;
  /** The clock the lag is measured by (a test's own, to see five minutes pass). */
  now?: () => number;
}): Promise<void> {
  const replicator = new Replicator(opts.dataDir, opts.target, opts.s3, opts.log, opts.now);
  if (opts.files) replicator.files = opts.files;
  current = replicator;
  await replicator.start();
}

export async function stopReplication(): Promise<void> {
  const replicator = current;
  await replicator?.stop();
}

/** The replica's status for the console, or null when REPLICA_URL is not set. */
export const replicaStatus = (): ReplicaStatus | null => current?.status() ?? null;

/** Why /healthz should fail because of the replica, or null. */
export const replicaProblem = (): string | null => current?.problem() ?? null;
