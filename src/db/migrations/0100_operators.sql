-- Operators (issue 33, docs/operators.md): the people who run the instance are users of its own
-- `system` project, and their roles say what the management API lets them do.

-- The instance's singleton row: which project is the system project. Created on first need
-- (`insert ... on conflict do nothing` in the transaction that creates the project), so
-- concurrent first calls agree on one. The project cannot be deleted while it is named here.
create table instance (
  id boolean primary key default true check (id),
  system_project_id text not null references projects (id),
  created_at timestamptz not null
);

-- What an operator may do: `instance_admin` (every project: project_id is null) or
-- `project_admin` of one project. The user is a user of the system project; erasing the user, or
-- deleting the project, takes the role with it.
create table operator_roles (
  id text primary key,
  user_id text not null references users (id) on delete cascade,
  project_id text null references projects (id) on delete cascade,
  role text not null check (role in ('instance_admin', 'project_admin')),
  granted_at timestamptz not null,
  constraint operator_roles_scope check ((role = 'instance_admin') = (project_id is null))
);
-- One role per user and project, and a user is instance admin once: the null project counts as
-- one value (an expression index rather than `unique nulls not distinct`, which needs PostgreSQL 15).
create unique index operator_roles_user_project on operator_roles (user_id, coalesce(project_id, ''));
create index operator_roles_granted on operator_roles (granted_at, id);
create index operator_roles_project on operator_roles (project_id);
