/** Process groups as Linux's /proc shows them, for the tests that check what a script leaves running. */
import { readdirSync, readFileSync } from 'node:fs';

/** The living processes of a process group (a zombie waiting to be reaped has ended). */
export function groupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // the command name may hold spaces and parentheses: the fields after it follow the last ')'
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return state !== 'Z' && Number(pgrp) === pgid;
      } catch {
        return false;
      }
    });
}
