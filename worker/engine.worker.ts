// The engine worker: exposes createEngine() over comlink. No logic lives here.
import { expose } from 'comlink';
import { createEngine } from './create-engine.ts';

expose(createEngine());
