// `make test`'s commit gate: commitlint (commitlint.config.mjs) over every commit after the one that added
// that config, which is where the rules began. Exits non-zero naming each message that breaks a rule.
import { spawnSync } from 'node:child_process';

const git = (...args) => spawnSync('git', args, { encoding: 'utf8' });

if (git('rev-parse', '--is-inside-work-tree').status !== 0) {
  console.log('commitlint: not a git checkout, no commits to check');
  process.exit(0);
}
const added = git('log', '--diff-filter=A', '--format=%H', '--', 'commitlint.config.mjs').stdout.trim().split('\n');
const base = added.at(-1);
if (!base) {
  console.error('commitlint: no commit added commitlint.config.mjs (a shallow clone?); fetch the whole history');
  process.exit(1);
}
const res = spawnSync('npx', ['commitlint', '--from', base, '--to', 'HEAD', '--verbose'], { stdio: 'inherit' });
process.exit(res.status ?? 1);
