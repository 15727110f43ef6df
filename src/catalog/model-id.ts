// Model ids as logs write them → the bare model id, where it was served (direct, Bedrock, Vertex, OpenRouter,
// Azure) and its maker. Logs say `claude-sonnet-4-5-20250929`, `anthropic/claude-…` (Inspect, LiteLLM),
// `us.anthropic.claude-sonnet-4-20250514-v1:0` (Bedrock), `claude-sonnet-4@20250514` (Vertex), `models/gemini-…`;
// the catalog and the pairing defaults need to tell these apart. Pure string work, no catalog access.

/** Where a model was called: its maker's own API or a cloud that resells it (its own wire and rules). */
type ModelHost = 'direct' | 'bedrock' | 'vertex' | 'openrouter' | 'azure';

/** Who makes the model (decides the catalog provider for direct calls and the default pairing rules). */
export type ModelFamily = 'anthropic' | 'openai' | 'google' | 'other';

export type ParsedModelId = {
  /** As written in the log. */
  raw: string;
  /** Without host prefixes, region prefixes or Bedrock version suffixes: `claude-sonnet-4-20250514`. */
  bare: string;
  /** As the host spells it, router prefix removed: `us.anthropic.claude-…-v1:0`, `anthropic/claude-sonnet-4.5`. */
  hostId: string;
  host: ModelHost;
  family: ModelFamily;
};

/** Bedrock model ids: optional cross-region prefix, vendor, model, optional `-vN[:N]` suffix. */
const BEDROCK =
  /^(?:(?:us|eu|apac|au|jp|ca|us-gov|global)\.)?(anthropic|amazon|meta|mistral|cohere|ai21|deepseek|openai|qwen|writer)\.(.+?)(?:-v\d+(?::\d+)?)?$/;
/** `arn:aws:bedrock:<region>:<account>:(inference-profile|foundation-model|…)/<model id>`. */
const BEDROCK_ARN = /^arn:aws[\w-]*:bedrock:[^:]*:[^:]*:[\w-]+\/(.+)$/;
/** Vertex resource names: `…/publishers/<vendor>/models/<model>`. */
const VERTEX_RESOURCE = /(?:^|\/)publishers\/[\w-]+\/models\/([^/]+)$/;
/** Router prefixes (LiteLLM, Inspect) naming the host a model was called through. */
const HOST_PREFIXES: [string, ModelHost][] = [
  ['bedrock/', 'bedrock'],
  ['vertex_ai/', 'vertex'],
  ['vertex/', 'vertex'],
  ['openrouter/', 'openrouter'],
  ['azure/', 'azure'],
];
/** Vendor prefixes in front of a model id (Inspect, LiteLLM, OpenRouter, the Gemini API's `models/`). */
const VENDOR_PREFIXES = ['anthropic/', 'openai/', 'google/', 'gemini/', 'models/'];

/** The maker of a bare model id, from its name. */
export function familyOf(bare: string): ModelFamily {
  const id = bare.toLowerCase();
  if (id.startsWith('claude') || id.startsWith('anthropic')) return 'anthropic';
  if (/^(gpt-|chatgpt|o\d(?:$|-)|codex|text-|davinci|babbage|ft:gpt)/.test(id)) return 'openai';
  if (id.startsWith('gemini') || id.startsWith('gemma')) return 'google';
  return 'other';
}

/** Parse a model id as a log writes it. Never throws; an empty id stays empty (family 'other'). */
export function parseModelId(raw: string): ParsedModelId {
  let id = raw.trim();
  let host: ModelHost = 'direct';
  const hostPrefix = HOST_PREFIXES.find(([p]) => id.toLowerCase().startsWith(p));
  if (hostPrefix) {
    host = hostPrefix[1];
    id = id.slice(hostPrefix[0].length);
  }
  let hostId = id;
  for (let again = true; again; ) {
    const p = VENDOR_PREFIXES.find((v) => id.toLowerCase().startsWith(v));
    again = p !== undefined;
    if (p) id = id.slice(p.length);
  }
  const arn = BEDROCK_ARN.exec(id);
  if (arn) {
    host = 'bedrock';
    id = arn[1];
    hostId = id;
  }
  const vertex = VERTEX_RESOURCE.exec(id);
  if (vertex) {
    host = 'vertex';
    id = vertex[1];
  }
  const bedrock = BEDROCK.exec(id);
  if (bedrock && (host === 'direct' || host === 'bedrock')) {
    host = 'bedrock';
    id = bedrock[2];
  }
  // Vertex writes Claude versions after an @: claude-sonnet-4@20250514.
  const at = id.indexOf('@');
  if (at > 0) {
    if (host === 'direct') host = 'vertex';
    id = `${id.slice(0, at)}-${id.slice(at + 1)}`;
  }
  return { raw, bare: id, hostId, host, family: familyOf(id) };
}
