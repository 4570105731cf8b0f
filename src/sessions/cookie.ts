/** The end-user session credential (interface: scheme `serviceSession`). */
export const SESSION_COOKIE = '__service_session';
