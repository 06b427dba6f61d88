// Worker threads do not inherit tsx's loader: register it in this thread, then run the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./load.ts');
