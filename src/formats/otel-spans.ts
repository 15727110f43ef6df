// OTLP trace data as JSON (the OTLP/HTTP JSON body, also what the Collector's file exporter writes one per line):
// `{resourceSpans: [{resource: {attributes}, scopeSpans: [{scope, spans: [{traceId, spanId, parentSpanId, name,
// startTimeUnixNano, endTimeUnixNano, attributes: [{key, value: AnyValue}], events: [{name, timeUnixNano,
// attributes}]}]}]}]}`. AnyValue is one of stringValue, intValue (a decimal string in JSON, per the OTLP JSON
// mapping, or a number), doubleValue, boolValue, arrayValue {values}, kvlistValue {values}, bytesValue. Flattened
// into plain spans with their attributes as a Map of JS values; `attributes` given as a plain object (some exporters)
// is read too.
import { arr, isObject, type JsonObject, num, str } from '../lib/json.ts';

export type Span = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** Epoch ms. */
  start?: number;
  end?: number;
  attrs: Map<string, unknown>;
  events: { name: string; time?: number; attrs: Map<string, unknown> }[];
  service?: string;
  /** Where it was: the line (JSONL) or 0, and its JSON path. */
  line: number;
  path: string;
};

/** An OTLP AnyValue as a JS value (ints as numbers when safe, else their string). */
function anyValue(v: unknown): unknown {
  if (!isObject(v)) return v;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) {
    const n = typeof v.intValue === 'string' ? Number(v.intValue) : v.intValue;
    return typeof n === 'number' && Number.isSafeInteger(n) ? n : v.intValue;
  }
  if ('doubleValue' in v) return typeof v.doubleValue === 'string' ? Number(v.doubleValue) : v.doubleValue;
  if ('boolValue' in v) return v.boolValue;
  if (isObject(v.arrayValue)) return (arr(v.arrayValue.values) ?? []).map(anyValue);
  if (isObject(v.kvlistValue)) return Object.fromEntries(attrMap(v.kvlistValue.values));
  if ('bytesValue' in v) return v.bytesValue;
  return v;
}

/** `[{key, value}]` (OTLP) or a plain object of values. */
function attrMap(list: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (isObject(list)) {
    for (const [k, v] of Object.entries(list)) out.set(k, v);
    return out;
  }
  for (const a of arr(list) ?? []) if (isObject(a) && typeof a.key === 'string') out.set(a.key, anyValue(a.value));
  return out;
}

/** Nanoseconds since the epoch (a decimal string, or a number) as epoch ms. */
function nanosToMs(v: unknown): number | undefined {
  // A digit string too long for a number (over ~309 digits) is no time at all (`num`: finite or undefined).
  if (typeof v === 'string' && /^\d+$/.test(v)) return v.length > 6 ? num(Number(v.slice(0, -6))) : 0;
  const n = num(v);
  return n === undefined ? undefined : n / 1e6;
}

/** True when `v` is an OTLP traces body. */
export function isTracesData(v: unknown): v is JsonObject {
  return isObject(v) && Array.isArray(v.resourceSpans);
}

/** The spans of one traces body. */
export function spansOf(doc: JsonObject, line: number): Span[] {
  const out: Span[] = [];
  (arr(doc.resourceSpans) ?? []).forEach((rs, i) => {
    if (!isObject(rs)) return;
    const resource = isObject(rs.resource) ? attrMap(rs.resource.attributes) : new Map<string, unknown>();
    const service = str(resource.get('service.name'));
    const scopes = arr(rs.scopeSpans) ?? arr(rs.instrumentationLibrarySpans) ?? [];
    scopes.forEach((ss, j) => {
      if (!isObject(ss)) return;
      (arr(ss.spans) ?? []).forEach((s, k) => {
        if (!isObject(s)) return;
        const span: Span = {
          traceId: str(s.traceId) ?? '',
          spanId: str(s.spanId) ?? `${line}:${i}.${j}.${k}`,
          name: str(s.name) ?? '',
          attrs: attrMap(s.attributes),
          events: (arr(s.events) ?? []).filter(isObject).map((e) => ({
            name: str(e.name) ?? '',
            time: nanosToMs(e.timeUnixNano),
            attrs: attrMap(e.attributes),
          })),
          line,
          path: `resourceSpans[${i}].scopeSpans[${j}].spans[${k}]`,
        };
        const parent = str(s.parentSpanId);
        if (parent) span.parentSpanId = parent;
        const start = nanosToMs(s.startTimeUnixNano);
        const end = nanosToMs(s.endTimeUnixNano);
        if (start !== undefined) span.start = start;
        if (end !== undefined) span.end = end;
        if (service) span.service = service;
        out.push(span);
      });
    });
  });
  return out;
}
