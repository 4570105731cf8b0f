import { Agent, request } from 'node:http';

/**
 * A minimal end-user frontend for the flow API: starts a flow, fills each visible step's fields
 * from the given values and presses the primary action until a complete step. Used by the seeding
 * and by the login-journey scenario.
 */
export interface JourneyResult {
  handoffToken?: string;
  steps: Array<{ step: string; zflowBytes: number }>;
  ok: boolean;
  error?: string;
}

interface FlowStep {
  name: string;
  type?: string;
  fields?: Array<{ name: string; required?: boolean }>;
  actions?: Array<{ name: string; primary?: boolean; kind?: string }>;
}

interface FlowResponse {
  id: string;
  step: FlowStep;
  handoff_token?: string;
}

/**
 * One keep-alive agent over plain node:http: `fetch` cost the load process about 1 ms of CPU per
 * request, and the journey client shares the machine's cores with the server it measures.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

interface Answer {
  status: number;
  setCookie: string[];
  json: unknown;
}

export function post(url: string, headers: Record<string, string>, body: unknown): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'] ?? [], json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        } catch (error) {
          reject(error as Error);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export function zflowOf(setCookie: string[]): string | undefined {
  for (const line of setCookie) {
    const match = /^_zflow=([^;]*)/.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

export async function runJourney(
  baseUrl: string,
  projectId: string,
  purpose: string,
  values: Record<string, string>,
  maxSteps = 8,
): Promise<JourneyResult> {
  const steps: JourneyResult['steps'] = [];
  let cookie = '';
  const send = async (path: string, body: unknown): Promise<FlowResponse> => {
    const response = await post(`${baseUrl}${path}`, cookie ? { cookie: `_zflow=${cookie}` } : {}, body);
    const zflow = zflowOf(response.setCookie);
    if (zflow !== undefined) cookie = zflow;
    const json = response.json as FlowResponse & { code?: string };
    if (response.status < 200 || response.status > 299) throw new Error(`${path} answered ${response.status} ${json.code ?? ''}`);
    steps.push({ step: json.step?.name ?? '?', zflowBytes: zflow?.length ?? 0 });
    return json;
  };
  try {
    let flow = await send('/flow', { project_id: projectId, purpose });
    for (let i = 0; i < maxSteps && flow.step.type !== 'complete'; i++) {
      const fields: Record<string, string> = {};
      for (const field of flow.step.fields ?? []) {
        const value = values[field.name];
        if (value !== undefined) fields[field.name] = value;
      }
      const action = flow.step.actions?.find((a) => a.primary) ?? flow.step.actions?.[0];
      flow = await send(`/flow/${flow.id}/submit`, { action: action?.name, fields });
    }
    return { ok: flow.step.type === 'complete', handoffToken: flow.handoff_token, steps };
  } catch (error) {
    return { ok: false, steps, error: (error as Error).message };
  }
}

export async function exchange(baseUrl: string, projectId: string, secret: string, handoffToken: string) {
  const response = await post(`${baseUrl}/sessions/exchange?project_id=${projectId}`, { authorization: `Bearer ${secret}` }, { handoff_token: handoffToken });
  if (response.status !== 200) throw new Error(`exchange answered ${response.status}`);
  return response.json as { session: { session_id: string }; session_token: string };
}
