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

function zflowOf(setCookie: string[]): string | undefined {
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
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie: `_zflow=${cookie}` } : {}) },
      body: JSON.stringify(body),
    });
    const zflow = zflowOf(response.headers.getSetCookie());
    if (zflow !== undefined) cookie = zflow;
    const json = (await response.json()) as FlowResponse & { code?: string };
    if (!response.ok) throw new Error(`${path} answered ${response.status} ${json.code ?? ''}`);
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
  const response = await fetch(`${baseUrl}/sessions/exchange?project_id=${projectId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
    body: JSON.stringify({ handoff_token: handoffToken }),
  });
  if (!response.ok) throw new Error(`exchange answered ${response.status}`);
  return (await response.json()) as { session: { session_id: string }; session_token: string };
}
