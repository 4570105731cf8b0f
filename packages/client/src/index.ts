export { createGatehouseClient, type GatehouseClient, type GatehouseClientOptions, type Session } from './client.js';
export { errorFromFailure, errorFromResponse, GatehouseError, isGatehouseError, type ErrorCode, type ErrorKind } from './errors.js';
export { FlowClient, type FlowResponse, type Step, type StepAction, type StepField, type PasskeyCeremonies } from './flows.js';
export { cookieJarFetch } from './cookie-jar.js';
export { DEVICE_CODE_GRANT, deviceLogin, printDeviceCode, type DeviceCode, type DeviceLoginOptions, type DeviceTokens } from './device.js';
export type { components, paths } from './generated/openapi.js';
