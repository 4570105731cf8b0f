import { isScope, SCOPES } from '../core/scopes.js';
import { ADMIN } from '../events/types.js';
import { existingProject, UsageError, withContainer, type CliValues } from './context.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export type AdminCommand = 'project create' | 'project list' | 'project rotate-secret' | 'project delete' | 'user unlock' | 'user delete' | 'key create' | 'client create';


/** The instance admin's commands on projects, users, service keys and OAuth clients: each runs the service's own call as `admin`. */
export async function adminCommand(command: AdminCommand, values: CliValues): Promise<void> {
  switch (command) {
    case 'project create': {
      if (!values.name) throw new UsageError('project create needs --name');
      const project = await withContainer((c) => c.projects.create({ name: values.name!, preview_origins: values['preview-origin'] }, { actor: ADMIN }));
      console.log(JSON.stringify(project, null, 2));
      return;
    }
    case 'project list': {
      const all = await withContainer(async (c) => {
        const projects = [];
        let pageToken: string | undefined;
        do {
          const page = await c.projects.list({ limit: 100, pageToken });
          projects.push(...page.items);
          pageToken = page.nextPageToken;
        } while (pageToken);
        return projects;
      });
      console.log(JSON.stringify(all, null, 2));
      return;
    }
    case 'project rotate-secret': {
      if (!values.project) throw new UsageError('project rotate-secret needs --project');
      console.log(JSON.stringify(await withContainer((c) => existingProject(c, values.project!, () => c.projects.rotateSecret(values.project!, ADMIN))), null, 2));
      return;
    }
    case 'project delete': {
      if (!values.project || !values.yes) throw new UsageError('project delete needs --project and --yes (it deletes everything in the project)');
      await withContainer((c) => existingProject(c, values.project!, () => c.projects.delete(values.project!)));
      console.log(JSON.stringify({ deleted: values.project }, null, 2));
      return;
    }
    case 'user unlock':
    case 'user delete': {
      if (!values.project || !values.user) throw new UsageError(`${command} needs --project and --user`);
      if (command === 'user delete' && !values.yes) throw new UsageError('user delete needs --yes (it erases the user)');
      await withContainer(async (c) => {
        const user = await c.users.find(values.project!, values.user!);
        if (!user) throw new UsageError(`user ${values.user} does not exist in project ${values.project}`);
        if (command === 'user delete') return c.users.delete(user.projectId, user.id, ADMIN);
        const { unlockUser } = await import('../users/unlock.js');
        await unlockUser(c, user, ADMIN);
      });
      console.log(JSON.stringify({ [command === 'user delete' ? 'deleted' : 'unlocked']: values.user }, null, 2));
      return;
    }
    case 'key create': {
      if (!values.project || !values.scopes) throw new UsageError('key create needs --project and --scopes');
      const scopes = values.scopes.split(',').map((s) => s.trim()).filter(Boolean);
      // Checked before the database is opened, so a typo fails at once.
      const unknown = scopes.filter((scope) => !isScope(scope));
      if (scopes.length === 0) throw new UsageError('key create needs at least one scope in --scopes');
      if (unknown.length > 0) throw new UsageError(`unknown scope "${unknown[0]}" (known: ${SCOPES.join(', ')})`);
      const key = await withContainer(async (c) => {
        if (!(await c.projects.row(values.project!))) throw new UsageError(`project ${values.project} does not exist`);
        return c.serviceKeys.create(values.project!, { name: values.name, scopes }, ADMIN);
      });
      console.log(JSON.stringify(key, null, 2));
      return;
    }
    case 'client create': {
      const redirectUris = values['redirect-uri'] ?? [];
      // --grant-type device (RFC 8628) alone needs no redirect URI; the default code flow does.
      const grantTypes = values['grant-type']?.map((grant) => ({ device: DEVICE_GRANT, code: 'authorization_code', refresh: 'refresh_token' })[grant] ?? grant);
      const codeFlow = grantTypes === undefined || grantTypes.includes('authorization_code');
      if (!values.project || (codeFlow && redirectUris.length === 0)) throw new UsageError('client create needs --project and at least one --redirect-uri (or --grant-type device)');
      const client = await withContainer(async (c) => {
        if (!(await c.projects.row(values.project!))) throw new UsageError(`project ${values.project} does not exist`);
        return c.oauth.oidcClients.create(values.project!, {
          name: values.name,
          redirect_uris: redirectUris,
          login_uri: values['login-uri'],
          post_logout_redirect_uris: values['post-logout-redirect-uri'],
          backchannel_logout_uri: values['backchannel-logout-uri'],
          token_endpoint_auth_method: values.public ? 'none' : 'client_secret_basic',
          grant_types: grantTypes as never,
        }, ADMIN);
      });
      console.log(JSON.stringify(client, null, 2));
      return;
    }
  }
}
