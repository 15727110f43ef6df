// Big replies cross the worker boundary as one transferred UTF-8 JSON buffer instead of a structured
// clone of thousands of small objects: JSON.parse on the main thread is several times faster than
// deserializing the same object graph, which keeps main-thread tasks short (SPEC §9).

export type Packed = { bytes: Uint8Array };

export function packJson(value: unknown): Packed {
  return { bytes: new TextEncoder().encode(JSON.stringify(value)) };
}

export function unpackJson<T>(p: Packed): T {
  return JSON.parse(new TextDecoder().decode(p.bytes)) as T;
}
