import { execFileSync } from 'node:child_process';

/** Integration tests run the compiled agent, as it ships; make sure the build is current. */
export default function setup(): void {
  execFileSync('npx', ['tsc', '-b', 'agent'], { stdio: 'inherit' });
}
