import fs from "node:fs";
import path from "node:path";

/**
 * Who may run the studio on a data folder (issue 33.5): the user who owns it. A command run as
 * another user (root, typically, from a shell) would leave files the service's user cannot write,
 * and the service would then fail, or restart in a loop. So such a run refuses before it creates
 * anything, and says the command to run instead.
 *
 * The folder decides when it exists; otherwise the nearest folder above it that exists, unless
 * anyone may create there (a world-writable folder such as /tmp).
 */
export function otherOwnerRefusal(
  dataDir: string,
  command: string,
  uid: number | undefined = process.getuid?.(),
): string | null {
  if (uid === undefined) return null; // not a POSIX system
  const owner = decidingOwner(path.resolve(dataDir));
  if (owner === null || owner === uid) return null;
  const name = userName(owner);
  const env = process.env.DATA_DIR ? `DATA_DIR=${shellQuote(process.env.DATA_DIR)} ` : "";
  return [
    `refused: the data folder ${path.resolve(dataDir)} belongs to ${name}, and this runs as ${userName(uid)}: what it created would not be ${name}'s, and the studio could no longer write it.`,
    `Run it as ${name} instead:  sudo -u ${name} ${env}${command}`,
  ].join("\n");
}

function decidingOwner(dir: string): number | null {
  for (let p = dir, first = true; ; p = path.dirname(p), first = false) {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (stat) {
      if (!first && stat.mode & 0o002) return null; // anyone may create here
      return stat.uid;
    }
    if (p === path.dirname(p)) return null;
  }
}

/** The user's name from /etc/passwd, or `#uid` (which sudo -u also takes). */
function userName(uid: number): string {
  try {
    for (const line of fs.readFileSync("/etc/passwd", "utf8").split("\n")) {
      const [name, , id] = line.split(":");
      if (name && Number(id) === uid) return name;
    }
  } catch {
    // no passwd file
  }
  return `'#${uid}'`;
}

/** An argument as a POSIX shell reads it back. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
