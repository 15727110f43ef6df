// The timeline as the page reads it: a chunk of points, one typed column per drawn field (a type only: imported
// with `import type`, so the page's bundle carries none of it). Made in the worker (timeline-columns.ts), crossed
// as bytes (timeline-bytes.ts), read by views/timeline/points.ts.

/** Points [from, from + index.length) of the timeline, one column per drawn field. NaN in a nullable column
 *  (time, observed usage, dollars, a category): absent — where the JSON columns had null. */
export type TimelineChunk = {
  from: number;
  /** Thread ids of the chunk; `thread[i]` indexes it. */
  threads: string[];
  thread: Int32Array;
  index: Int32Array;
  time: Float64Array;
  /** Models of the chunk; `model[i]` indexes it, -1: none. */
  models: string[];
  model: Int32Array;
  inputTokens: Float64Array;
  outputTokens: Float64Array;
  estimateIn: Float64Array;
  estimateOut: Float64Array;
  /** Category keys of the chunk in first-seen order, and per key its value at each point (NaN: not a key of it). */
  cats: string[];
  catValues: Float64Array[];
  /** Observed usage (NaN: the request has none). */
  obsInput: Float64Array;
  obsRead: Float64Array;
  obsWrite: Float64Array;
  obsOutput: Float64Array;
  simRead: Float64Array;
  simWrite: Float64Array;
  simPrompt: Float64Array;
  usdRecorded: Float64Array;
  usdSimulated: Float64Array;
  responseMessage: Int32Array;
};
