-- Events per flow (DESIGN §4.6a "Unauthenticated writes are budgeted"): POST /flow/{id}/event
-- stores a flow_events row of up to 8 KiB, and one replayed _zflow cookie could send them for the
-- flow's whole life. Each event takes one of its run's events in the statement that stores it
-- (at most FLOW_EVENT_CAP = 50, src/flows/runtime/engine.ts); past it nothing is stored.
alter table flow_runs add column events integer not null default 0;
