// Generates the bundled samples in public/samples/ (deterministic; run `npm run samples`).
import { writeFileSync } from 'node:fs';
import { exportBundle } from '../src/formats/tierscope.ts';
import { loop, repeat } from '../test/helpers/loop.ts';

const story = loop([
  { tool: 'Bash', args: 'ls internal/auth', result: '3000 chars' },
  { tool: 'Read', args: 'internal/auth/session.go', result: '18000 chars' },
  ...repeat(28, { tool: 'Bash', args: 'go test ./...', result: '3000 chars' }),
]);
story.meta = { title: 'The 37.1 story: the file still being edited', fileName: 'story-37-1.tierscope.json' };
writeFileSync('public/samples/story-37-1.tierscope.json', exportBundle(story));
