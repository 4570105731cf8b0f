-- A client event may come without a payload (issue 12 item 3); nothing is stored in its place.
alter table flow_events alter column payload drop not null;
