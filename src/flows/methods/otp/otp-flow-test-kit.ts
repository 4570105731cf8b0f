import type { LightMyRequestResponse } from 'fastify';
import { bearer, createTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { startSmtpServer, textPart, type ReceivedMail } from '../../../courier/test-smtp-server.js';
import { defaultUserSchema } from '../../../schemas/default-schema.js';
import { FlowClient } from '../../flow-test-kit.js';
import { OTP_FIELD } from './index.js';

export const ORIGIN = 'http://localhost:4455';
export const SCHEMA_ID = 'https://example.com/schemas/otp-user';

/** A user schema with e-mail codes and magic links enabled beside passwords. */
export function otpSchema(methods: { otp?: boolean; magic_link?: boolean } = {}): Record<string, unknown> {
  const schema = defaultUserSchema();
  schema.$id = SCHEMA_ID;
  schema['x-auth-methods'] = {
    password: { enabled: true },
    passkey: { enabled: false },
    sso: { enabled: false },
    otp: { enabled: methods.otp ?? true },
    magic_link: { enabled: methods.magic_link ?? true },
  };
  return schema;
}

const codeStep = (resendTarget: string) => ({
  name: 'code',
  fields: [OTP_FIELD],
  actions: [
    { name: 'verify', kind: 'submit', primary: true },
    { name: 'resend', kind: 'navigate', primary: false },
  ],
  transitions: { verify: { target: 'done' }, resend: { target: resendTarget } },
});

/** Sign-in by code (purpose `code_login`) and passwordless registration (purpose `code_register`). */
export const CODE_DEFINITIONS = [
  {
    name: 'code_login',
    user_schema: SCHEMA_ID,
    purposes: { code_login: 'identify' },
    steps: [
      {
        name: 'identify',
        fields: ['email'],
        actions: [{ name: 'send_code', kind: 'submit', primary: true }],
        on_success: 'send_otp',
        transitions: { send_code: { target: 'code' } },
      },
      codeStep('identify'),
      { name: 'done', complete: 'redirect' },
    ],
  },
  {
    name: 'code_register',
    user_schema: SCHEMA_ID,
    purposes: { code_register: 'register' },
    steps: [
      {
        name: 'register',
        fields: ['email', 'name.given'],
        actions: [{ name: 'create', kind: 'submit', primary: true }],
        on_success: 'create_user',
        transitions: { create: { target: 'send' } },
      },
      { name: 'send', on_success: 'send_otp', transitions: { next: { target: 'code' } } },
      codeStep('send'),
      { name: 'done', complete: 'redirect' },
    ],
  },
];

export interface OtpKit {
  t: TestApp;
  project: { id: string; project_secret: string };
  smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  /** Creates a user of the otp schema through the management API. */
  createUser(email: string): Promise<string>;
  /** The newest message received for `to` after the courier delivered everything. */
  lastMail(to: string): Promise<ReceivedMail | undefined>;
  /** Code and link of the newest message for `to`. */
  codeFor(to: string): Promise<{ code: string; link?: string; token?: string; text: string }>;
  /** Starts `purpose` and submits the address; the answer is the code step. */
  requestCode(client: FlowClient, email: string, purpose?: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The newest message `smtp` received for `to` after `t`'s courier delivered everything. */
export async function lastMailTo(t: TestApp, smtp: { received: ReceivedMail[] }, to: string): Promise<ReceivedMail | undefined> {
  await t.container.flows.courier.flush();
  return smtp.received.filter((mail) => mail.to.some((address) => address.toLowerCase() === to.toLowerCase())).at(-1);
}

/** Code and link of the newest message for `to` (the code alone on a line of 6 digits, the link alone on its line: DESIGN §4.11). */
export async function mailedCode(t: TestApp, smtp: { received: ReceivedMail[] }, to: string): Promise<{ code: string; link?: string; token?: string; text: string }> {
  const mail = await lastMailTo(t, smtp, to);
  if (!mail) throw new Error(`no mail for ${to}`);
  const text = textPart(mail.raw);
  const code = /^(\d{6})$/m.exec(text)?.[1];
  if (!code) throw new Error(`no code line in ${text}`);
  const link = /^(https?:\/\/\S+)$/m.exec(text)?.[1];
  return { code, link, token: link ? (new URL(link).searchParams.get('token') ?? undefined) : undefined, text };
}

/** `defaultPublicUrl`: leave GATEHOUSE_PUBLIC_URL to the test configuration's default instead of ORIGIN. */
export async function otpKit(options: { magicLink?: boolean; defaultPublicUrl?: boolean } = {}): Promise<OtpKit> {
  const smtp = await startSmtpServer();
  const t = await createTestApp({ smtpUrl: smtp.url, ...(options.defaultPublicUrl ? {} : { publicUrl: ORIGIN }) });
  const project = await t.createProject();
  const schema = await t.app.inject({ method: 'POST', url: `/schemas?project_id=${project.id}`, headers: bearer(project.project_secret), payload: otpSchema({ magic_link: options.magicLink ?? true }) });
  if (schema.statusCode !== 201) throw new Error(`schema: ${schema.body}`);
  for (const flow_definition of CODE_DEFINITIONS) {
    const created = await t.app.inject({ method: 'POST', url: '/flow_definitions', headers: bearer(project.project_secret), payload: { project_id: project.id, schema_uri: SCHEMA_ID, flow_definition } });
    if (created.statusCode !== 201) throw new Error(`definition: ${created.body}`);
  }
  const kit: OtpKit = {
    t,
    project,
    smtp,
    async createUser(email) {
      const created = await t.app.inject({ method: 'POST', url: `/users?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { schema: SCHEMA_ID, attributes: { email } } });
      if (created.statusCode !== 201) throw new Error(`user: ${created.body}`);
      return created.json().id;
    },
    lastMail: (to) => lastMailTo(t, smtp, to),
    codeFor: (to) => mailedCode(t, smtp, to),
    async requestCode(client, email, purpose = 'code_login') {
      const started = await client.start({ project_id: project.id, purpose });
      if (started.statusCode !== 200) throw new Error(`start: ${started.body}`);
      return client.submit(started.json().id, 'send_code', { email });
    },
    async close() {
      await t.close();
      await smtp.close();
    },
  };
  return kit;
}
