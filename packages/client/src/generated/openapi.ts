/**
 * Generated from Gatehouse's own /openapi.json by openapi-typescript: do not edit.
 * Regenerate with `npm run generate:client`; packages/client/src/generated.test.ts fails when
 * this file and the route schemas drift apart.
 */
export type paths = {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Name, version and links to the API description, the sign-in page and the docs */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            links: {
                                /** @description Where the documentation is */
                                docs: string;
                                /** @description The hosted sign-in page */
                                login: string;
                                /** @description The API description */
                                openapi: string;
                            };
                            name: string;
                            version: string;
                        };
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/openid-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OpenID Provider metadata */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            issuer: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth_attempts/{id}/handoff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint the handoff token of a completed auth attempt
         * @description Only for a completed attempt (409 att.not_completed). A second call answers 409 att.already_handed_off, unless it repeats the Idempotency-Key of the first within 5 minutes: then the same token is returned.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            auth_attempt_id: string;
                            /** @description Single use, exchange at POST /sessions/exchange within 60 seconds */
                            handoff_token: string;
                            /** Format: date-time */
                            handoff_token_expires_at: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authorization endpoint: code + PKCE (S256); sign-in is a Gatehouse login flow */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Redirect (Location) to the login frontend or back to the client */
                302: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Authorization endpoint, form POST: the same parameters as GET */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Redirect (Location) to the login frontend or back to the client */
                303: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/authorize/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Back from the login flow: exchanges its handoff token and redirects to the client with the code */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Redirect (Location) to the login frontend or back to the client */
                302: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Back from the login flow: exchanges its handoff token and redirects to the client with the code */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Redirect (Location) to the login frontend or back to the client */
                303: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/device_authorization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Device authorization endpoint (RFC 8628): a device code to poll with and a user code to type at /ui/device
         * @description Form parameters: client_id (public clients) or client authentication (Basic or client_secret_post), scope (OIDC scopes; default openid), acr_values (optional: urn:nist:aal:2 makes the sign-in at /ui/device step up to AAL2). Requests are budgeted per client IP like /auth/authorize (rule ip_authorizations_per_minute).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The device polls the token endpoint with it (grant_type urn:ietf:params:oauth:grant-type:device_code); stored only as its SHA-256 */
                            device_code: string;
                            /** @description Seconds the codes live: 600 */
                            expires_in: number;
                            /** @description Seconds to wait between polls: 5 (slow_down adds 5 each time) */
                            interval: number;
                            /** @description 8 characters of BCDFGHJKLMNPQRSTVWXZ shown as XXXX-XXXX; the person types it at verification_uri (case and dashes do not matter) */
                            user_code: string;
                            /** @description The hosted page /ui/device */
                            verification_uri: string;
                            /** @description verification_uri with the user code filled in (for a QR code or a link) */
                            verification_uri_complete: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/introspect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Token introspection (RFC 7662) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            client_id?: string;
                            exp?: number;
                            iat?: number;
                            iss?: string;
                            jti?: string;
                            project_id?: string;
                            scope?: string;
                            sid?: string;
                            sub?: string;
                            token_type?: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/jwks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The JSON Web Key Set for ID tokens */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            keys: {
                                [key: string]: unknown;
                            }[];
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Token revocation (RFC 7009) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Token endpoint (RFC 6749, 8693, 8628) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            expires_in: number;
                            id_token?: string;
                            issued_token_type?: string;
                            refresh_token?: string;
                            scope: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/userinfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OpenID Connect userinfo (claims through x-claim) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email?: string;
                            /** @description Whether a mailed code or link proved the address (DESIGN §4.11) */
                            email_verified?: boolean;
                            family_name?: string;
                            given_name?: string;
                            name?: string;
                            picture?: string;
                            preferred_username?: string;
                            sub: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** OpenID Connect userinfo (claims through x-claim) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email?: string;
                            /** @description Whether a mailed code or link proved the address (DESIGN §4.11) */
                            email_verified?: boolean;
                            family_name?: string;
                            given_name?: string;
                            name?: string;
                            picture?: string;
                            preferred_username?: string;
                            sub: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
                /** @description OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `oauth.<error>`, or a Gatehouse code such as `req.too_large` */
                            code: string;
                            details: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 6749 / 6750 / 7009 error name */
                            error?: string;
                            error_description?: string;
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A project's event log, newest first (docs/events.md) */
        get: {
            parameters: {
                query?: {
                    /** @description Only events of this actor (an operator's user id, a service key's client id, a user acting on itself) */
                    actor_id?: string;
                    /** @description Another name for page_size, as the other lists call it */
                    limit?: number;
                    /** @description Events per page (default 20) */
                    page_size?: number;
                    page_token?: string;
                    /** @description The project (required with the admin token) */
                    project_id?: string;
                    /** @description Only events at or after this time */
                    since?: string;
                    /** @description Only events about this user, session, client... */
                    subject_id?: string;
                    /** @description Only events of this type, or of these (comma-separated, at most 20) */
                    type?: string;
                    /** @description Only events before this time */
                    until?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            events: {
                                actor: {
                                    id: string | null;
                                    /** @description `admin`, `project_secret`, `service_key` (id: its client id), `operator` (id: the operator's user id), `self` (id: the user), `system` */
                                    kind: string;
                                };
                                /** @description The type's fields (docs/events.md); never a secret */
                                data: {
                                    [key: string]: unknown;
                                };
                                /** @description evt_…; also the webhook-id of its deliveries */
                                id: string;
                                /** Format: date-time */
                                occurred_at: string;
                                project_id: string;
                                subject: {
                                    id: string | null;
                                    /** @description What the event is about: `user`, `session`, `project`, `schema`, `flow_definition`, `team`, `sso_provider`, `oauth_client`, `service_key`, `operator`, `webhook` */
                                    kind: string;
                                };
                                /** @description One of the catalogue of docs/events.md */
                                type: string;
                            }[];
                            next_page_token?: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a flow for a purpose (sets _zflow) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Audience: the app the flow runs for */
                        app_id?: string;
                        /** @description The project */
                        project_id: string;
                        purpose: string;
                        /** @description Must exactly match an entry of the project's allow-list */
                        redirect_uri?: string;
                        /** @description An existing session to step up or re-authenticate; purpose `settings` needs it, and its session token (cookie __service_session or Authorization: Bearer) */
                        session_id?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            branding: {
                                [key: string]: unknown;
                            };
                            handoff_token?: string;
                            handoff_token_expires_at?: string;
                            id: string;
                            redirect_uri?: string;
                            session_id: string;
                            session_token?: string;
                            step: {
                                actions: ({
                                    kind: string;
                                    name: string;
                                    primary: boolean;
                                    text_key: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                /** @description on a complete step: `redirect` or `show` */
                                behavior?: string;
                                challenge?: {
                                    challenge_id: string;
                                    /** @description `conditional`: offer passkeys in the autofill of the identifier field */
                                    mediation?: string;
                                    /** @description `passkey` or `passkey_register` */
                                    method: string;
                                    /** @description PublicKeyCredentialRequestOptionsJSON or PublicKeyCredentialCreationOptionsJSON */
                                    options: {
                                        [key: string]: unknown;
                                    };
                                } & {
                                    [key: string]: unknown;
                                };
                                /** @description settings: the signed-in user's credentials a `credential_id` may name */
                                credentials?: ({
                                    created_at: string;
                                    id: string;
                                    method: string;
                                    name: string | null;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                /** @description a text key: something that happened between requests failed */
                                error?: string;
                                fields: ({
                                    name: string;
                                    required: boolean;
                                    text_key: string;
                                    type: string;
                                    /** @description a value the flow collected already, to prefill (never a secret) */
                                    value?: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                gates?: {
                                    captcha?: {
                                        [key: string]: unknown;
                                    };
                                } & {
                                    [key: string]: unknown;
                                };
                                name: string;
                                /** @description new recovery codes, in the answer that made them only */
                                recovery_codes?: string[];
                                sso_providers?: ({
                                    id: string;
                                    name: string;
                                    template: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                texts: {
                                    description_key: string;
                                    title_key: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                totp?: {
                                    otpauth_uri: string;
                                    qr_svg: string;
                                    secret: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                /** @description `complete` marks a terminal step */
                                type: string;
                                /** @description a text key the user should act on */
                                warning?: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flow_definitions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List flow definitions */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page_token?: string;
                    project_id?: string;
                    purpose?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            flow_definitions: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                name: string;
                                project_id: string;
                                schema_uri: string;
                                status: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            next_page_token?: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a flow definition */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        flow_definition: {
                            audience?: {
                                app_ids?: string[];
                            };
                            name: string;
                            purposes: {
                                [key: string]: string;
                            };
                            status?: "active" | "inactive";
                            steps: {
                                actions?: {
                                    kind: string;
                                    name: string;
                                    primary?: boolean;
                                    text_key?: string;
                                }[];
                                complete?: string;
                                fields?: string[];
                                gates?: {
                                    [key: string]: {
                                        kind?: string;
                                    };
                                };
                                name: string;
                                on_success?: string;
                                /** @description Upstream identity providers the step offers: ids, or `*` for every enabled one */
                                sso_providers?: string[];
                                texts?: {
                                    description_key?: string;
                                    title_key?: string;
                                };
                                transitions?: {
                                    [key: string]: {
                                        action?: string;
                                        target: string;
                                    };
                                };
                            }[];
                            user_schema?: string;
                        };
                        /** @description The project (defaults to the credential's project) */
                        project_id?: string;
                        schema_uri?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            flow_definition: {
                                [key: string]: unknown;
                            };
                            id: string;
                            project_id: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flow_definitions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a flow definition */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            flow_definition: {
                                [key: string]: unknown;
                            };
                            id: string;
                            project_id: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Replace a flow definition (status kept when omitted) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        flow_definition: {
                            audience?: {
                                app_ids?: string[];
                            };
                            name: string;
                            purposes: {
                                [key: string]: string;
                            };
                            status?: "active" | "inactive";
                            steps: {
                                actions?: {
                                    kind: string;
                                    name: string;
                                    primary?: boolean;
                                    text_key?: string;
                                }[];
                                complete?: string;
                                fields?: string[];
                                gates?: {
                                    [key: string]: {
                                        kind?: string;
                                    };
                                };
                                name: string;
                                on_success?: string;
                                /** @description Upstream identity providers the step offers: ids, or `*` for every enabled one */
                                sso_providers?: string[];
                                texts?: {
                                    description_key?: string;
                                    title_key?: string;
                                };
                                transitions?: {
                                    [key: string]: {
                                        action?: string;
                                        target: string;
                                    };
                                };
                            }[];
                            user_schema?: string;
                        };
                        /** @description The project (defaults to the credential's project) */
                        project_id?: string;
                        schema_uri?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            flow_definition: {
                                [key: string]: unknown;
                            };
                            id: string;
                            project_id: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a flow definition */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flow_definitions/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check a flow definition document as a create or update would (400 with the same errors), storing nothing; a taken name is refused only by the write */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        flow_definition: {
                            audience?: {
                                app_ids?: string[];
                            };
                            name: string;
                            purposes: {
                                [key: string]: string;
                            };
                            status?: "active" | "inactive";
                            steps: {
                                actions?: {
                                    kind: string;
                                    name: string;
                                    primary?: boolean;
                                    text_key?: string;
                                }[];
                                complete?: string;
                                fields?: string[];
                                gates?: {
                                    [key: string]: {
                                        kind?: string;
                                    };
                                };
                                name: string;
                                on_success?: string;
                                /** @description Upstream identity providers the step offers: ids, or `*` for every enabled one */
                                sso_providers?: string[];
                                texts?: {
                                    description_key?: string;
                                    title_key?: string;
                                };
                                transitions?: {
                                    [key: string]: {
                                        action?: string;
                                        target: string;
                                    };
                                };
                            }[];
                            user_schema?: string;
                        };
                        /** @description The project (defaults to the credential's project) */
                        project_id?: string;
                        schema_uri?: string;
                    };
                };
            };
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flow/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Re-render the current step without advancing */
        get: {
            parameters: {
                query?: {
                    /** @description When given, a flow of another project answers 404 flow.not_found */
                    project_id?: string;
                };
                header?: never;
                path: {
                    /** @description The latest flow id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            branding: {
                                [key: string]: unknown;
                            };
                            handoff_token?: string;
                            handoff_token_expires_at?: string;
                            id: string;
                            redirect_uri?: string;
                            session_id: string;
                            session_token?: string;
                            step: {
                                actions: ({
                                    kind: string;
                                    name: string;
                                    primary: boolean;
                                    text_key: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                /** @description on a complete step: `redirect` or `show` */
                                behavior?: string;
                                challenge?: {
                                    challenge_id: string;
                                    /** @description `conditional`: offer passkeys in the autofill of the identifier field */
                                    mediation?: string;
                                    /** @description `passkey` or `passkey_register` */
                                    method: string;
                                    /** @description PublicKeyCredentialRequestOptionsJSON or PublicKeyCredentialCreationOptionsJSON */
                                    options: {
                                        [key: string]: unknown;
                                    };
                                } & {
                                    [key: string]: unknown;
                                };
                                /** @description settings: the signed-in user's credentials a `credential_id` may name */
                                credentials?: ({
                                    created_at: string;
                                    id: string;
                                    method: string;
                                    name: string | null;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                /** @description a text key: something that happened between requests failed */
                                error?: string;
                                fields: ({
                                    name: string;
                                    required: boolean;
                                    text_key: string;
                                    type: string;
                                    /** @description a value the flow collected already, to prefill (never a secret) */
                                    value?: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                gates?: {
                                    captcha?: {
                                        [key: string]: unknown;
                                    };
                                } & {
                                    [key: string]: unknown;
                                };
                                name: string;
                                /** @description new recovery codes, in the answer that made them only */
                                recovery_codes?: string[];
                                sso_providers?: ({
                                    id: string;
                                    name: string;
                                    template: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                texts: {
                                    description_key: string;
                                    title_key: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                totp?: {
                                    otpauth_uri: string;
                                    qr_svg: string;
                                    secret: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                /** @description `complete` marks a terminal step */
                                type: string;
                                /** @description a text key the user should act on */
                                warning?: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flow/{id}/event": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record a fingerprint or telemetry event (never advances the flow) */
        post: {
            parameters: {
                query?: {
                    /** @description When given, a flow of another project answers 404 flow.not_found */
                    project_id?: string;
                };
                header?: never;
                path: {
                    /** @description The latest flow id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        payload?: {
                            [key: string]: unknown;
                        };
                        type: "fingerprint" | "telemetry";
                    };
                };
            };
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flow/{id}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit the current step */
        post: {
            parameters: {
                query?: {
                    /** @description When given, a flow of another project answers 404 flow.not_found */
                    project_id?: string;
                };
                header?: never;
                path: {
                    /** @description The latest flow id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        action: string;
                        captcha?: string | {
                            [key: string]: unknown;
                        };
                        /** @description The answer to step.challenge (passkeys) */
                        challenge_response?: {
                            challenge_id: string;
                            method: string;
                            /** @description The credential's toJSON() (WebAuthn JSON) */
                            proof: {
                                [key: string]: unknown;
                            };
                        };
                        fields?: {
                            [key: string]: unknown;
                        };
                        /** @description `sso` actions: where the browser returns (with ?flow=<id>) after the upstream sign-in; on the request's allowed origin */
                        return_to?: string;
                        /** @description `sso` actions: one of step.sso_providers */
                        sso_provider_id?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            branding: {
                                [key: string]: unknown;
                            };
                            handoff_token?: string;
                            handoff_token_expires_at?: string;
                            id: string;
                            redirect_uri?: string;
                            session_id: string;
                            session_token?: string;
                            step: {
                                actions: ({
                                    kind: string;
                                    name: string;
                                    primary: boolean;
                                    text_key: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                /** @description on a complete step: `redirect` or `show` */
                                behavior?: string;
                                challenge?: {
                                    challenge_id: string;
                                    /** @description `conditional`: offer passkeys in the autofill of the identifier field */
                                    mediation?: string;
                                    /** @description `passkey` or `passkey_register` */
                                    method: string;
                                    /** @description PublicKeyCredentialRequestOptionsJSON or PublicKeyCredentialCreationOptionsJSON */
                                    options: {
                                        [key: string]: unknown;
                                    };
                                } & {
                                    [key: string]: unknown;
                                };
                                /** @description settings: the signed-in user's credentials a `credential_id` may name */
                                credentials?: ({
                                    created_at: string;
                                    id: string;
                                    method: string;
                                    name: string | null;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                /** @description a text key: something that happened between requests failed */
                                error?: string;
                                fields: ({
                                    name: string;
                                    required: boolean;
                                    text_key: string;
                                    type: string;
                                    /** @description a value the flow collected already, to prefill (never a secret) */
                                    value?: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                gates?: {
                                    captcha?: {
                                        [key: string]: unknown;
                                    };
                                } & {
                                    [key: string]: unknown;
                                };
                                name: string;
                                /** @description new recovery codes, in the answer that made them only */
                                recovery_codes?: string[];
                                sso_providers?: ({
                                    id: string;
                                    name: string;
                                    template: string;
                                } & {
                                    [key: string]: unknown;
                                })[];
                                texts: {
                                    description_key: string;
                                    title_key: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                totp?: {
                                    otpauth_uri: string;
                                    qr_svg: string;
                                    secret: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                /** @description `complete` marks a terminal step */
                                type: string;
                                /** @description a text key the user should act on */
                                warning?: string;
                            } & {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flow/saml/acs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The SAML ACS, second leg: the packed response with the browser's _zsaml (sets _zflow, clears _zsaml, 303 to return_to?flow=<id>) */
        get: {
            parameters: {
                query?: {
                    RelayState?: string;
                    SAMLResponse?: string;
                    z?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                303: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** The SAML Assertion Consumer Service (HTTP-POST binding): 303 to the GET form with the response packed */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        RelayState?: string;
                        SAMLResponse?: string;
                        z?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                303: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flow/sso/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where upstream identity providers send the browser back (sets _zflow, clears _zsso, 303 to return_to?flow=<id>) */
        get: {
            parameters: {
                query?: {
                    authuser?: string;
                    code?: string;
                    error?: string;
                    error_description?: string;
                    error_uri?: string;
                    hd?: string;
                    iss?: string;
                    prompt?: string;
                    scope?: string;
                    session_state?: string;
                    state?: string;
                    user?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                303: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** The form_post return of an upstream provider: 303 to the GET form */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        authuser?: string;
                        code?: string;
                        error?: string;
                        error_description?: string;
                        error_uri?: string;
                        hd?: string;
                        iss?: string;
                        prompt?: string;
                        scope?: string;
                        session_state?: string;
                        state?: string;
                        user?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                303: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is alive */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: string;
                        };
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (instance admin token) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Prometheus text exposition format */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": string;
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the operators' roles, oldest grant first (instance admin) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page_token?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_page_token?: string;
                            roles: {
                                /** Format: date-time */
                                granted_at: string;
                                /** @description The project of a project admin; null for an instance admin */
                                project_id: string | null;
                                /** @description `instance_admin` (every project) or `project_admin` (one project) */
                                role: "instance_admin" | "project_admin";
                                /** @description A user of the system project */
                                user_id: string;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operators/{user_id}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Grant a system-project user a role (instance admin; granting a held role changes nothing) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A user of the system project */
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The project of a project_admin role; absent for instance_admin */
                        project_id?: string;
                        /** @description `instance_admin` (every project) or `project_admin` (one project) */
                        role: "instance_admin" | "project_admin";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            granted_at: string;
                            /** @description The project of a project admin; null for an instance admin */
                            project_id: string | null;
                            /** @description `instance_admin` (every project) or `project_admin` (one project) */
                            role: "instance_admin" | "project_admin";
                            /** @description A user of the system project */
                            user_id: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        /** Revoke a role: the project admin role of project_id, or without it the instance admin role (never the last one) */
        delete: {
            parameters: {
                query?: {
                    /** @description The project of the project_admin role to revoke */
                    project_id?: string;
                };
                header?: never;
                path: {
                    /** @description A user of the system project */
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operators/cli_client": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The public OAuth client `gatehouse login` signs operators in with (device authorization grant); made with the system project on first call */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            client_id: string;
                            /** @description The system project */
                            project_id: string;
                        };
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operators/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The calling operator: their system-project user and roles */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            roles: {
                                /** Format: date-time */
                                granted_at: string;
                                /** @description The project of a project admin; null for an instance admin */
                                project_id: string | null;
                                /** @description `instance_admin` (every project) or `project_admin` (one project) */
                                role: "instance_admin" | "project_admin";
                                /** @description A user of the system project */
                                user_id: string;
                            }[];
                            user_id: string;
                        };
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operators/me/project_tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mint a 5-minute project token for a project the calling operator administers */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A project the operator administers */
                        project_id: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            expires_at: string;
                            /** @description A bearer credential of the project (gh_op_…), as the project secret */
                            token: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operators/system_project": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The system project, whose users are the operators; created on first call (instance admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            project_id: string;
                        };
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List every project, oldest first (instance admin token; a project admin operator: their projects) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page_token?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_page_token?: string;
                            projects: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                name: string;
                                preview_origins: string[];
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a project (instance admin token) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        preview_origins?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            preview_origins: string[];
                            /** @description Shown once; stored only as a hash */
                            preview_secret: string;
                            /** @description Shown once; stored only as a hash */
                            project_secret: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a project (without its secrets) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            preview_origins: string[];
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a project and everything in it, in one transaction (instance admin token) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Rename a project or replace its preview origins */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        preview_origins?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            preview_origins: string[];
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/projects/{project_id}/branding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the branding of the flow UI */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            font_url?: string;
                            hero_url?: string;
                            layout: string;
                            liquid_template: string;
                            logo_url?: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Replace the branding (the liquid template must parse) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: uri */
                        font_url?: string;
                        /** Format: uri */
                        hero_url?: string;
                        layout?: string;
                        liquid_template?: string;
                        /** Format: uri */
                        logo_url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            font_url?: string;
                            hero_url?: string;
                            layout: string;
                            liquid_template: string;
                            logo_url?: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/flow_settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the redirect allow-list, passkey and risk settings */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            passkeys: {
                                /** @description Relying party ID: a registrable suffix of the origins' host names (default: each origin's host) */
                                rp_id?: string;
                            };
                            redirect_uris: string[];
                            risk: {
                                account_captcha_after: number;
                                account_disable_after: number;
                                account_lock_after: number;
                                account_lock_max_seconds: number;
                                account_lock_seconds: number;
                                captcha_score: number;
                                ip_authorizations_per_minute: number;
                                ip_block_after: number;
                                ip_captcha_after: number;
                                ip_flow_starts_per_minute: number;
                                mail_per_recipient: number;
                                mail_per_recipient_window_seconds: number;
                                new_fingerprint_score: number;
                            };
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Update the redirect allow-list, passkey and risk settings */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        passkeys?: {
                            /** @description Relying party ID: a registrable suffix of the origins' host names (default: each origin's host) */
                            rp_id?: string;
                        };
                        redirect_uris?: string[];
                        risk?: {
                            account_captcha_after?: number;
                            account_disable_after?: number;
                            account_lock_after?: number;
                            account_lock_max_seconds?: number;
                            account_lock_seconds?: number;
                            captcha_score?: number;
                            ip_authorizations_per_minute?: number;
                            ip_block_after?: number;
                            ip_captcha_after?: number;
                            ip_flow_starts_per_minute?: number;
                            mail_per_recipient?: number;
                            mail_per_recipient_window_seconds?: number;
                            new_fingerprint_score?: number;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            passkeys: {
                                /** @description Relying party ID: a registrable suffix of the origins' host names (default: each origin's host) */
                                rp_id?: string;
                            };
                            redirect_uris: string[];
                            risk: {
                                account_captcha_after: number;
                                account_disable_after: number;
                                account_lock_after: number;
                                account_lock_max_seconds: number;
                                account_lock_seconds: number;
                                captcha_score: number;
                                ip_authorizations_per_minute: number;
                                ip_block_after: number;
                                ip_captcha_after: number;
                                ip_flow_starts_per_minute: number;
                                mail_per_recipient: number;
                                mail_per_recipient_window_seconds: number;
                                new_fingerprint_score: number;
                            };
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/mail_templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the project's mail template overrides */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            mail_templates: {
                                html?: string;
                                language: string;
                                subject: string;
                                template: string;
                                text: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/mail_templates/{template}/{language}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Override the subject and bodies of one message in one language (validated by parsing) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description en or de */
                    language: "en" | "de";
                    project_id: string;
                    /** @description The message: recovery_code, sign_in_code, magic_link or recovery_link */
                    template: "recovery_code" | "sign_in_code" | "magic_link" | "recovery_link";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Liquid template of the HTML part (values are HTML-escaped); default: the built-in one */
                        html?: string;
                        /** @description Liquid template of the subject */
                        subject: string;
                        /** @description Liquid template of the text part */
                        text: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            html?: string;
                            language: string;
                            subject: string;
                            template: string;
                            text: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        /** Remove an override (the built-in template applies again) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description en or de */
                    language: "en" | "de";
                    project_id: string;
                    /** @description The message: recovery_code, sign_in_code, magic_link or recovery_link */
                    template: "recovery_code" | "sign_in_code" | "magic_link" | "recovery_link";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/mail_templates/{template}/{language}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The message as it would be sent (override or built-in), rendered with sample values */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description en or de */
                    language: "en" | "de";
                    project_id: string;
                    /** @description The message: recovery_code, sign_in_code, magic_link or recovery_link */
                    template: "recovery_code" | "sign_in_code" | "magic_link" | "recovery_link";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The rendered HTML part */
                            html: string;
                            language: string;
                            /** @description Whether the project's override was used (else the built-in template) */
                            overridden: boolean;
                            /** @description The rendered subject */
                            subject: string;
                            template: string;
                            /** @description The rendered text part */
                            text: string;
                            /** @description The sample values the preview was rendered with */
                            variables: {
                                code: string;
                                email: string;
                                expires_minutes: number;
                                link: string;
                                project_name: string;
                            };
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/mail_templates/built_in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The built-in templates: every message in every language, as Liquid */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            mail_templates: {
                                /** @description Liquid template of the HTML part */
                                html: string;
                                /** @description en or de */
                                language: string;
                                /** @description Liquid template of the subject */
                                subject: string;
                                /** @description recovery_code, sign_in_code or magic_link */
                                template: string;
                                /** @description Liquid template of the text part */
                                text: string;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/oauth_clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List OIDC clients (secrets are never shown again) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page_token?: string;
                };
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_page_token?: string;
                            oauth_clients: {
                                /** @description Back-Channel Logout 1.0: where logout tokens are posted when a session ends */
                                backchannel_logout_uri?: string;
                                client_id: string;
                                /** Format: date-time */
                                created_at: string;
                                /** @description RFC 7591 grant_types the client may use */
                                grant_types: string[];
                                /** @description The frontend that runs the login flow for this client */
                                login_uri?: string;
                                name: string;
                                /** @description Where /auth/logout may send the browser back (exact URLs) */
                                post_logout_redirect_uris: string[];
                                project_id: string;
                                redirect_uris: string[];
                                token_endpoint_auth_method: string;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Register an OIDC client (authorization code + PKCE, and/or the device authorization grant) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Back-Channel Logout 1.0: https URL that receives logout tokens */
                        backchannel_logout_uri?: string;
                        /** @description RFC 7591 grant_types. Default ["authorization_code", "refresh_token"]; "urn:ietf:params:oauth:grant-type:device_code" opts in to the device authorization grant (RFC 8628), which only the clients naming it may use. refresh_token: refresh tokens are issued. */
                        grant_types?: ("authorization_code" | "refresh_token" | "urn:ietf:params:oauth:grant-type:device_code")[];
                        /** @description Default: the hosted UI at /ui/login */
                        login_uri?: string;
                        name?: string;
                        /** @description RP-initiated logout: exact URLs /auth/logout may redirect to */
                        post_logout_redirect_uris?: string[];
                        /** @description Exact URLs; at least one with the authorization_code grant */
                        redirect_uris?: string[];
                        token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "none";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Back-Channel Logout 1.0: where logout tokens are posted when a session ends */
                            backchannel_logout_uri?: string;
                            client_id: string;
                            /** @description Shown once; stored only as a hash. Absent for public clients. */
                            client_secret?: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description RFC 7591 grant_types the client may use */
                            grant_types: string[];
                            /** @description The frontend that runs the login flow for this client */
                            login_uri?: string;
                            name: string;
                            /** @description Where /auth/logout may send the browser back (exact URLs) */
                            post_logout_redirect_uris: string[];
                            project_id: string;
                            redirect_uris: string[];
                            token_endpoint_auth_method: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/oauth_clients/{client_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an OIDC client */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    client_id: string;
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Back-Channel Logout 1.0: where logout tokens are posted when a session ends */
                            backchannel_logout_uri?: string;
                            client_id: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description RFC 7591 grant_types the client may use */
                            grant_types: string[];
                            /** @description The frontend that runs the login flow for this client */
                            login_uri?: string;
                            name: string;
                            /** @description Where /auth/logout may send the browser back (exact URLs) */
                            post_logout_redirect_uris: string[];
                            project_id: string;
                            redirect_uris: string[];
                            token_endpoint_auth_method: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an OIDC client (idempotent); its pending authorizations go with it */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    client_id: string;
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/outbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's mail, newest first (bodies only from the embedded courier, for development) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description Only messages to this address */
                    recipient?: string;
                };
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            messages: {
                                attempts: number;
                                /** @description The text part, kept by the embedded courier only (null when sent by SMTP) */
                                body: string | null;
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                recipient: string;
                                sent_at: string | null;
                                /** @description `logged` (embedded courier), `pending`, `sent` or `failed` */
                                status: string;
                                subject: string;
                                template: string;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Issue a new project secret; the old one works until previous_valid_until (24 h) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            previous_valid_until: string;
                            /** @description The new secret: shown once; stored only as a hash */
                            project_secret: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/saml_providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List SAML identity providers */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page_token?: string;
                };
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_page_token?: string;
                            saml_providers: {
                                /** @description The Assertion Consumer Service URL (HTTP-POST) to register at the IdP */
                                acs_url: string;
                                /** @description Schema property path -> SAML attribute Name; a property not named here is read from the common claim URIs (docs/saml.md) */
                                attributes: {
                                    [key: string]: string;
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** @description E-mail domains whose sign-ins go to this IdP (home-realm discovery) */
                                domains: string[];
                                enabled: boolean;
                                id: string;
                                /** @description How many signing certificates the metadata lists (several during a rollover) */
                                idp_certificates: number;
                                /** @description From the IdP metadata */
                                idp_entity_id: string | null;
                                idp_metadata_url?: string;
                                idp_metadata_xml?: string;
                                /** @description The IdP's SingleSignOnService (HTTP-Redirect binding) */
                                idp_sso_url: string | null;
                                /** @description verified_email: the assertion's e-mail counts as verified (the operator trusts the IdP): it links an existing user with that verified address at once, and a user created just in time keeps it verified */
                                link: "none" | "verified_email";
                                /** Format: date-time */
                                metadata_fetched_at?: string;
                                name: string;
                                project_id: string;
                                /** @description The SP entity id (Audience) to register at the IdP */
                                sp_entity_id: string;
                                /** @description The SP metadata to give the IdP */
                                sp_metadata_url: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/saml_providers/{provider_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a SAML identity provider */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                    /** @description The provider id: a slug chosen by the operator */
                    provider_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The Assertion Consumer Service URL (HTTP-POST) to register at the IdP */
                            acs_url: string;
                            /** @description Schema property path -> SAML attribute Name; a property not named here is read from the common claim URIs (docs/saml.md) */
                            attributes: {
                                [key: string]: string;
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** @description E-mail domains whose sign-ins go to this IdP (home-realm discovery) */
                            domains: string[];
                            enabled: boolean;
                            id: string;
                            /** @description How many signing certificates the metadata lists (several during a rollover) */
                            idp_certificates: number;
                            /** @description From the IdP metadata */
                            idp_entity_id: string | null;
                            idp_metadata_url?: string;
                            idp_metadata_xml?: string;
                            /** @description The IdP's SingleSignOnService (HTTP-Redirect binding) */
                            idp_sso_url: string | null;
                            /** @description verified_email: the assertion's e-mail counts as verified (the operator trusts the IdP): it links an existing user with that verified address at once, and a user created just in time keeps it verified */
                            link: "none" | "verified_email";
                            /** Format: date-time */
                            metadata_fetched_at?: string;
                            name: string;
                            project_id: string;
                            /** @description The SP entity id (Audience) to register at the IdP */
                            sp_entity_id: string;
                            /** @description The SP metadata to give the IdP */
                            sp_metadata_url: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Create or replace a SAML 2.0 identity provider (metadata inline or by URL) */
        put: {
            parameters: {
                query?: never;
                header?: {
                    /** @description `*`: create only; a taken id answers 412 req.precondition_failed */
                    "if-none-match"?: string;
                };
                path: {
                    project_id: string;
                    /** @description The provider id: a slug chosen by the operator */
                    provider_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Schema property path -> SAML attribute Name; a property not named here is read from the common claim URIs (docs/saml.md) */
                        attributes?: {
                            [key: string]: string;
                        };
                        /** @description E-mail domains sent to this IdP instead of a password; unique per project */
                        domains?: string[];
                        enabled?: boolean;
                        /** @description Where the IdP publishes its metadata: fetched now, cached, and fetched again daily (https; http only on loopback) */
                        idp_metadata_url?: string;
                        /** @description The IdP metadata document (exactly one of this and idp_metadata_url) */
                        idp_metadata_xml?: string;
                        /** @description verified_email: the assertion's e-mail counts as verified (the operator trusts the IdP): it links an existing user with that verified address at once, and a user created just in time keeps it verified */
                        link?: "none" | "verified_email";
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The Assertion Consumer Service URL (HTTP-POST) to register at the IdP */
                            acs_url: string;
                            /** @description Schema property path -> SAML attribute Name; a property not named here is read from the common claim URIs (docs/saml.md) */
                            attributes: {
                                [key: string]: string;
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** @description E-mail domains whose sign-ins go to this IdP (home-realm discovery) */
                            domains: string[];
                            enabled: boolean;
                            id: string;
                            /** @description How many signing certificates the metadata lists (several during a rollover) */
                            idp_certificates: number;
                            /** @description From the IdP metadata */
                            idp_entity_id: string | null;
                            idp_metadata_url?: string;
                            idp_metadata_xml?: string;
                            /** @description The IdP's SingleSignOnService (HTTP-Redirect binding) */
                            idp_sso_url: string | null;
                            /** @description verified_email: the assertion's e-mail counts as verified (the operator trusts the IdP): it links an existing user with that verified address at once, and a user created just in time keeps it verified */
                            link: "none" | "verified_email";
                            /** Format: date-time */
                            metadata_fetched_at?: string;
                            name: string;
                            project_id: string;
                            /** @description The SP entity id (Audience) to register at the IdP */
                            sp_entity_id: string;
                            /** @description The SP metadata to give the IdP */
                            sp_metadata_url: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The Assertion Consumer Service URL (HTTP-POST) to register at the IdP */
                            acs_url: string;
                            /** @description Schema property path -> SAML attribute Name; a property not named here is read from the common claim URIs (docs/saml.md) */
                            attributes: {
                                [key: string]: string;
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** @description E-mail domains whose sign-ins go to this IdP (home-realm discovery) */
                            domains: string[];
                            enabled: boolean;
                            id: string;
                            /** @description How many signing certificates the metadata lists (several during a rollover) */
                            idp_certificates: number;
                            /** @description From the IdP metadata */
                            idp_entity_id: string | null;
                            idp_metadata_url?: string;
                            idp_metadata_xml?: string;
                            /** @description The IdP's SingleSignOnService (HTTP-Redirect binding) */
                            idp_sso_url: string | null;
                            /** @description verified_email: the assertion's e-mail counts as verified (the operator trusts the IdP): it links an existing user with that verified address at once, and a user created just in time keeps it verified */
                            link: "none" | "verified_email";
                            /** Format: date-time */
                            metadata_fetched_at?: string;
                            name: string;
                            project_id: string;
                            /** @description The SP entity id (Audience) to register at the IdP */
                            sp_entity_id: string;
                            /** @description The SP metadata to give the IdP */
                            sp_metadata_url: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a SAML identity provider (idempotent) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                    /** @description The provider id: a slug chosen by the operator */
                    provider_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/service_keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List service keys (secrets are never shown again) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page_token?: string;
                };
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_page_token?: string;
                            service_keys: {
                                client_id: string;
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                name: string;
                                project_id: string;
                                scopes: string[];
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a service key (an OAuth2 client of the project) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        scopes: ("project.write" | "team.read" | "team.write" | "schema.read" | "schema.write" | "user.read" | "user.write" | "session.read" | "sessions.read" | "session.write" | "session.delete" | "auth_attempt.write" | "flow_definition.read" | "flow_definition.write" | "flow_definition.delete" | "event.read")[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            client_id: string;
                            /** @description Shown once; stored only as a hash */
                            client_secret: string;
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            project_id: string;
                            scopes: string[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/service_keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a service key (idempotent) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    key_id: string;
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read project settings (session TTLs, freshness windows) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            events: {
                                /** @description Days the event log keeps an event (default 90); older ones are deleted by the sweeper (docs/events.md) */
                                retention_days: number;
                            };
                            sessions: {
                                /** @description Freshness window of urn:nist:aal:1 (default 86400) */
                                aal1_window_seconds: number;
                                /** @description Freshness window of urn:nist:aal:2 (default 43200); at most aal1_window_seconds */
                                aal2_window_seconds: number;
                                /** @description Largest ttl an exchange may ask for (default and limit 2592000 = 720 h) */
                                max_ttl_seconds: number;
                                /** @description Lifetime of an authenticated session when the exchange names no ttl (default 86400) */
                                ttl_seconds: number;
                            };
                            ui: {
                                /** @description Per-language overrides of the hosted UI's text keys (docs/hosted-ui.md) */
                                texts: {
                                    /** @description text key -> text */
                                    de?: {
                                        [key: string]: string;
                                    };
                                    /** @description text key -> text */
                                    en?: {
                                        [key: string]: string;
                                    };
                                };
                            };
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change project settings (fields not given are kept) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        events?: {
                            /** @description Days the event log keeps an event (default 90); older ones are deleted by the sweeper (docs/events.md) */
                            retention_days: number;
                        };
                        sessions?: {
                            /** @description Freshness window of urn:nist:aal:1 (default 86400) */
                            aal1_window_seconds?: number;
                            /** @description Freshness window of urn:nist:aal:2 (default 43200); at most aal1_window_seconds */
                            aal2_window_seconds?: number;
                            /** @description Largest ttl an exchange may ask for (default and limit 2592000 = 720 h) */
                            max_ttl_seconds?: number;
                            /** @description Lifetime of an authenticated session when the exchange names no ttl (default 86400) */
                            ttl_seconds?: number;
                        };
                        ui?: {
                            /** @description Per-language overrides of the hosted UI's text keys (docs/hosted-ui.md) */
                            texts: {
                                /** @description text key -> text */
                                de?: {
                                    [key: string]: string;
                                };
                                /** @description text key -> text */
                                en?: {
                                    [key: string]: string;
                                };
                            };
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            events: {
                                /** @description Days the event log keeps an event (default 90); older ones are deleted by the sweeper (docs/events.md) */
                                retention_days: number;
                            };
                            sessions: {
                                /** @description Freshness window of urn:nist:aal:1 (default 86400) */
                                aal1_window_seconds: number;
                                /** @description Freshness window of urn:nist:aal:2 (default 43200); at most aal1_window_seconds */
                                aal2_window_seconds: number;
                                /** @description Largest ttl an exchange may ask for (default and limit 2592000 = 720 h) */
                                max_ttl_seconds: number;
                                /** @description Lifetime of an authenticated session when the exchange names no ttl (default 86400) */
                                ttl_seconds: number;
                            };
                            ui: {
                                /** @description Per-language overrides of the hosted UI's text keys (docs/hosted-ui.md) */
                                texts: {
                                    /** @description text key -> text */
                                    de?: {
                                        [key: string]: string;
                                    };
                                    /** @description text key -> text */
                                    en?: {
                                        [key: string]: string;
                                    };
                                };
                            };
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/projects/{project_id}/sso_providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List upstream identity providers (secrets are never shown) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page_token?: string;
                };
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_page_token?: string;
                            sso_providers: {
                                /** @description Schema property path -> upstream claim */
                                claims: {
                                    [key: string]: string;
                                };
                                client_id: string;
                                /** @description The secret itself is never returned */
                                client_secret_set: boolean;
                                /** Format: date-time */
                                created_at: string;
                                enabled: boolean;
                                id: string;
                                issuer?: string;
                                /** @description verified_email: link an existing user by a verified upstream e-mail at once (the operator trusts the provider) */
                                link: "none" | "verified_email";
                                name: string;
                                project_id: string;
                                /** @description The redirect URI to register at the provider */
                                redirect_uri: string;
                                scopes: string[];
                                template: "oidc" | "google" | "microsoft" | "apple" | "gitlab" | "github";
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/sso_providers/{provider_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an upstream identity provider */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                    /** @description The provider id: a slug chosen by the operator */
                    provider_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Schema property path -> upstream claim */
                            claims: {
                                [key: string]: string;
                            };
                            client_id: string;
                            /** @description The secret itself is never returned */
                            client_secret_set: boolean;
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            id: string;
                            issuer?: string;
                            /** @description verified_email: link an existing user by a verified upstream e-mail at once (the operator trusts the provider) */
                            link: "none" | "verified_email";
                            name: string;
                            project_id: string;
                            /** @description The redirect URI to register at the provider */
                            redirect_uri: string;
                            scopes: string[];
                            template: "oidc" | "google" | "microsoft" | "apple" | "gitlab" | "github";
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Create or replace an upstream identity provider (the client secret is stored encrypted) */
        put: {
            parameters: {
                query?: never;
                header?: {
                    /** @description `*`: create only; a taken id answers 412 req.precondition_failed and changes nothing */
                    "if-none-match"?: string;
                };
                path: {
                    project_id: string;
                    /** @description The provider id: a slug chosen by the operator */
                    provider_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        claims?: {
                            [key: string]: string;
                        };
                        client_id: string;
                        /** @description Omitted on a replacement: the stored secret stays; null removes it */
                        client_secret?: string | null;
                        enabled?: boolean;
                        /** @description Required by oidc and microsoft (the tenant issuer); preset by the others; for github, a GitHub Enterprise Server base URL (github.com when omitted) */
                        issuer?: string;
                        /** @description verified_email: link an existing user by a verified upstream e-mail at once (the operator trusts the provider) */
                        link?: "none" | "verified_email";
                        name: string;
                        scopes?: string[];
                        template: "oidc" | "google" | "microsoft" | "apple" | "gitlab" | "github";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Schema property path -> upstream claim */
                            claims: {
                                [key: string]: string;
                            };
                            client_id: string;
                            /** @description The secret itself is never returned */
                            client_secret_set: boolean;
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            id: string;
                            issuer?: string;
                            /** @description verified_email: link an existing user by a verified upstream e-mail at once (the operator trusts the provider) */
                            link: "none" | "verified_email";
                            name: string;
                            project_id: string;
                            /** @description The redirect URI to register at the provider */
                            redirect_uri: string;
                            scopes: string[];
                            template: "oidc" | "google" | "microsoft" | "apple" | "gitlab" | "github";
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Schema property path -> upstream claim */
                            claims: {
                                [key: string]: string;
                            };
                            client_id: string;
                            /** @description The secret itself is never returned */
                            client_secret_set: boolean;
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            id: string;
                            issuer?: string;
                            /** @description verified_email: link an existing user by a verified upstream e-mail at once (the operator trusts the provider) */
                            link: "none" | "verified_email";
                            name: string;
                            project_id: string;
                            /** @description The redirect URI to register at the provider */
                            redirect_uri: string;
                            scopes: string[];
                            template: "oidc" | "google" | "microsoft" | "apple" | "gitlab" | "github";
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        /** Delete an upstream identity provider (idempotent) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                    /** @description The provider id: a slug chosen by the operator */
                    provider_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page_token?: string;
                };
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_page_token?: string;
                            webhooks: {
                                /** Format: date-time */
                                created_at: string;
                                description?: string;
                                /** Format: date-time */
                                disabled_at?: string;
                                /** @description false once disabled (by PATCH, or after 5 days of failures) */
                                enabled: boolean;
                                /** @description Event types (docs/events.md), or ["*"] for every type */
                                events: string[];
                                /** Format: date-time */
                                failing_since?: string;
                                /** @description wh_… */
                                id: string;
                                project_id: string;
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Register a webhook endpoint; the answer holds its signing secret, once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        events: string[];
                        /** @description https; a public address (private, loopback and link-local targets are refused unless GATEHOUSE_OUTBOUND_ALLOW_PRIVATE=1; a loopback receiver, http too, when the public URL is itself loopback) */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description?: string;
                            /** Format: date-time */
                            disabled_at?: string;
                            /** @description false once disabled (by PATCH, or after 5 days of failures) */
                            enabled: boolean;
                            /** @description Event types (docs/events.md), or ["*"] for every type */
                            events: string[];
                            /** Format: date-time */
                            failing_since?: string;
                            /** @description wh_… */
                            id: string;
                            project_id: string;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        } & {
                            /** @description whsec_…: shown in this answer only; it signs every delivery (Standard Webhooks) */
                            secret: string;
                        };
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a webhook endpoint (never its secret) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                    webhook_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description?: string;
                            /** Format: date-time */
                            disabled_at?: string;
                            /** @description false once disabled (by PATCH, or after 5 days of failures) */
                            enabled: boolean;
                            /** @description Event types (docs/events.md), or ["*"] for every type */
                            events: string[];
                            /** Format: date-time */
                            failing_since?: string;
                            /** @description wh_… */
                            id: string;
                            project_id: string;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a webhook endpoint and its pending deliveries */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                    webhook_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change a webhook endpoint; enabled: true re-enables a disabled one */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                    webhook_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string | null;
                        enabled?: boolean;
                        events?: string[];
                        /** @description https; a public address (private, loopback and link-local targets are refused unless GATEHOUSE_OUTBOUND_ALLOW_PRIVATE=1; a loopback receiver, http too, when the public URL is itself loopback) */
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description?: string;
                            /** Format: date-time */
                            disabled_at?: string;
                            /** @description false once disabled (by PATCH, or after 5 days of failures) */
                            enabled: boolean;
                            /** @description Event types (docs/events.md), or ["*"] for every type */
                            events: string[];
                            /** Format: date-time */
                            failing_since?: string;
                            /** @description wh_… */
                            id: string;
                            project_id: string;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        };
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/projects/{project_id}/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An endpoint's deliveries, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page_token?: string;
                };
                header?: never;
                path: {
                    project_id: string;
                    webhook_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deliveries: {
                                attempts: number;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                delivered_at?: string;
                                event_id: string;
                                /** @description The type of the event it carries */
                                event_type: string;
                                /** @description msg_…: the webhook-id header, the same on every retry */
                                id: string;
                                last_error?: string;
                                last_status_code?: number;
                                /** Format: date-time */
                                next_attempt_at?: string;
                                /** Format: date-time */
                                occurred_at: string;
                                status: "pending" | "delivered" | "failed";
                            }[];
                            next_page_token?: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivery again now (same webhook-id), with a fresh 24 h of retries */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    delivery_id: string;
                    project_id: string;
                    webhook_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            delivered_at?: string;
                            event_id: string;
                            /** @description The type of the event it carries */
                            event_type: string;
                            /** @description msg_…: the webhook-id header, the same on every retry */
                            id: string;
                            last_error?: string;
                            last_status_code?: number;
                            /** Format: date-time */
                            next_attempt_at?: string;
                            /** Format: date-time */
                            occurred_at: string;
                            status: "pending" | "delivered" | "failed";
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/webhooks/{webhook_id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new signing secret, shown once; the previous one also signs for 24 h (two signatures per delivery) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    project_id: string;
                    webhook_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            previous_valid_until: string;
                            /** @description whsec_…: shown in this answer only; it signs every delivery (Standard Webhooks) */
                            secret: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The database answers */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: string;
                        };
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/saml/{provider_id}/metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The SP metadata of a SAML provider: entity id, ACS (HTTP-POST) and the encryption certificate, for the IdP */
        get: {
            parameters: {
                query: {
                    /** @description The project */
                    project_id: string;
                };
                header?: never;
                path: {
                    /** @description The provider id: a slug chosen by the operator */
                    provider_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description SAML 2.0 metadata (EntityDescriptor) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/samlmetadata+xml": string;
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List schema revisions: every revision, or the newest of each objectType */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page_token?: string;
                    /** @description The project (required with the admin token) */
                    project_id?: string;
                    revisions?: "all" | "latest";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_page_token?: string;
                            schemas: {
                                id: string;
                                metadata: {
                                    /** Format: date-time */
                                    created_at: string;
                                };
                                /** @description The document, verbatim */
                                schema: {
                                    [key: string]: unknown;
                                };
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Store a new immutable revision of a user schema */
        post: {
            parameters: {
                query: {
                    /** @description The project */
                    project_id: string;
                    /** @description The owning team */
                    team_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description A user schema (JSON Schema 2020-12 with x-auth-methods, x-unique, x-claim, x-audit), or `{"kind": "schema-url", "url": "..."}` naming one */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schemas/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one schema revision */
        get: {
            parameters: {
                query?: {
                    team_id?: string;
                };
                header?: never;
                path: {
                    /** @description Revision id, or the URL-encoded $id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            metadata: {
                                /** Format: date-time */
                                created_at: string;
                            };
                            /** @description The document, verbatim */
                            schema: {
                                [key: string]: unknown;
                            };
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List sessions of a project (every state), newest last */
        get: {
            parameters: {
                query: {
                    limit?: number;
                    page_token?: string;
                    /** @description The project */
                    project_id: string;
                    state?: "building" | "active" | "expired";
                    /** @description Only sessions of this user */
                    user_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_page_token?: string;
                            sessions: {
                                /** @description urn:nist:aal:1, urn:nist:aal:2; computed at read time */
                                assurance_levels: string[];
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                factors: {
                                    method: string;
                                    payload: {
                                        user_id: string;
                                    } & {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    verified_at: string;
                                }[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                project_id: string;
                                session_id: string;
                                state: "building" | "active" | "expired";
                                user_agent: {
                                    fingerprint?: string;
                                    ip?: string;
                                };
                                user_id?: string;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create an anonymous session shell (state building, 10 minutes) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Client fingerprint, recorded in user_agent */
                        fingerprint?: string;
                        metadata?: {
                            [key: string]: unknown;
                        };
                        /** @description The project */
                        project_id: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            session: {
                                /** @description urn:nist:aal:1, urn:nist:aal:2; computed at read time */
                                assurance_levels: string[];
                                /** Format: date-time */
                                created_at: string;
                                email?: string;
                                /** Format: date-time */
                                expires_at: string;
                                factors: {
                                    method: string;
                                    payload: {
                                        user_id: string;
                                    } & {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    verified_at: string;
                                }[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                name?: string;
                                project_id: string;
                                session_id: string;
                                state: "building" | "active" | "expired";
                                user_agent: {
                                    fingerprint?: string;
                                    ip?: string;
                                };
                                user_id?: string;
                            };
                            /** @description Also set as the __service_session cookie; supersedes any earlier token */
                            session_token: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a session */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    session_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description urn:nist:aal:1, urn:nist:aal:2; computed at read time */
                            assurance_levels: string[];
                            /** Format: date-time */
                            created_at: string;
                            email?: string;
                            /** Format: date-time */
                            expires_at: string;
                            factors: {
                                method: string;
                                payload: {
                                    user_id: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                /** Format: date-time */
                                verified_at: string;
                            }[];
                            metadata: {
                                [key: string]: unknown;
                            };
                            name?: string;
                            project_id: string;
                            session_id: string;
                            state: "building" | "active" | "expired";
                            user_agent: {
                                fingerprint?: string;
                                ip?: string;
                            };
                            user_id?: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Revoke a session (idempotent: 204 also for unknown ids) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    session_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/exchange": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a handoff token for a session (new, shell upgrade or step-up)
         * @description Optional header `Idempotency-Key`: a retry with the same key within 5 minutes returns the same payload.
         */
        post: {
            parameters: {
                query: {
                    /** @description The project */
                    project_id: string;
                };
                header?: {
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        handoff_token: string;
                        /** @description ISO 8601 duration, e.g. PT8H */
                        ttl?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            session: {
                                /** @description urn:nist:aal:1, urn:nist:aal:2; computed at read time */
                                assurance_levels: string[];
                                /** Format: date-time */
                                created_at: string;
                                email?: string;
                                /** Format: date-time */
                                expires_at: string;
                                factors: {
                                    method: string;
                                    payload: {
                                        user_id: string;
                                    } & {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    verified_at: string;
                                }[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                name?: string;
                                project_id: string;
                                session_id: string;
                                state: "building" | "active" | "expired";
                                user_agent: {
                                    fingerprint?: string;
                                    ip?: string;
                                };
                                user_id?: string;
                            };
                            /** @description Also set as the __service_session cookie; supersedes any earlier token */
                            session_token: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current session (cookie __service_session, or Authorization: Bearer <session token>) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description urn:nist:aal:1, urn:nist:aal:2; computed at read time */
                            assurance_levels: string[];
                            /** Format: date-time */
                            created_at: string;
                            email?: string;
                            /** Format: date-time */
                            expires_at: string;
                            factors: {
                                method: string;
                                payload: {
                                    user_id: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                /** Format: date-time */
                                verified_at: string;
                            }[];
                            metadata: {
                                [key: string]: unknown;
                            };
                            name?: string;
                            project_id: string;
                            session_id: string;
                            state: "building" | "active" | "expired";
                            user_agent: {
                                fingerprint?: string;
                                ip?: string;
                            };
                            user_id?: string;
                        };
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Log out: delete the current session and clear the cookie (idempotent) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Query sessions with filters, sorted by created_at */
        post: {
            parameters: {
                query: {
                    /** @description The project */
                    project_id: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_after?: string;
                        /** Format: date-time */
                        created_before?: string;
                        /** @description Only sessions whose user's lifecycle owner team is this one */
                        lifecycle_owner_team_id?: string;
                        /** @default 20 */
                        limit?: number;
                        page_token?: string;
                        sort?: {
                            /** @default asc */
                            direction: "asc" | "desc";
                            /** @enum {string} */
                            field: "created_at";
                        };
                        state?: "building" | "active" | "expired";
                        /** @description Only sessions of this user */
                        user_id?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_page_token?: string;
                            sessions: {
                                /** @description urn:nist:aal:1, urn:nist:aal:2; computed at read time */
                                assurance_levels: string[];
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                expires_at: string;
                                factors: {
                                    method: string;
                                    payload: {
                                        user_id: string;
                                    } & {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    verified_at: string;
                                }[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                project_id: string;
                                session_id: string;
                                state: "building" | "active" | "expired";
                                user_agent: {
                                    fingerprint?: string;
                                    ip?: string;
                                };
                                user_id?: string;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the project's teams, oldest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page_token?: string;
                    /** @description The project (required with the admin token) */
                    project_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_page_token?: string;
                            teams: {
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                                name: string;
                                project_id: string;
                                status: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a team */
        post: {
            parameters: {
                query: {
                    /** @description The project */
                    project_id: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            project_id: string;
                            status: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/teams/{team_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a team */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    team_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            id: string;
                            name: string;
                            project_id: string;
                            status: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a team that owns no user schema and no user (409 team.in_use otherwise) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    team_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the project's users, oldest first */
        get: {
            parameters: {
                query?: {
                    /** @description Only the user with this identifier (e-mail, username...; compared after normalisation, as at sign-in): zero or one result */
                    identifier?: string;
                    limit?: number;
                    page_token?: string;
                    /** @description The project (required with the admin token) */
                    project_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            next_page_token?: string;
                            users: {
                                attributes: {
                                    [key: string]: unknown;
                                };
                                id: string;
                                metadata: {
                                    /** Format: date-time */
                                    created_at: string;
                                    lifecycle_owner_team_id?: string;
                                    status: string;
                                    /** Format: date-time */
                                    updated_at: string;
                                    /** @description Attribute paths the user proved to own with a mailed code or link, and when (e.g. `{"email": "2026-…"}`) */
                                    verified?: {
                                        [key: string]: string;
                                    };
                                };
                                /** @description The user schema the attributes satisfy (as given on creation) */
                                schema: string;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a user whose attributes satisfy a user schema */
        post: {
            parameters: {
                query?: {
                    /** @description The project (required with the admin token) */
                    project_id?: string;
                    /** @description Lifecycle owner team */
                    team_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        attributes: {
                            [key: string]: unknown;
                        };
                        /** @description Schema revision id or $id URL */
                        schema: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attributes: {
                                [key: string]: unknown;
                            };
                            id: string;
                            metadata: {
                                /** Format: date-time */
                                created_at: string;
                                lifecycle_owner_team_id?: string;
                                status: string;
                                /** Format: date-time */
                                updated_at: string;
                                /** @description Attribute paths the user proved to own with a mailed code or link, and when (e.g. `{"email": "2026-…"}`) */
                                verified?: {
                                    [key: string]: string;
                                };
                            };
                            /** @description The user schema the attributes satisfy (as given on creation) */
                            schema: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a user */
        get: {
            parameters: {
                query?: {
                    /** @description Only if this team owns the user */
                    team_id?: string;
                };
                header?: never;
                path: {
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attributes: {
                                [key: string]: unknown;
                            };
                            id: string;
                            metadata: {
                                /** Format: date-time */
                                created_at: string;
                                lifecycle_owner_team_id?: string;
                                status: string;
                                /** Format: date-time */
                                updated_at: string;
                                /** @description Attribute paths the user proved to own with a mailed code or link, and when (e.g. `{"email": "2026-…"}`) */
                                verified?: {
                                    [key: string]: string;
                                };
                            };
                            /** @description The user schema the attributes satisfy (as given on creation) */
                            schema: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Erase a user: its sessions, tokens, attempts and credentials go in the same transaction */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Replace a user's attributes (validated against its schema; unique values re-claimed; audited) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        attributes: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            attributes: {
                                [key: string]: unknown;
                            };
                            id: string;
                            metadata: {
                                /** Format: date-time */
                                created_at: string;
                                lifecycle_owner_team_id?: string;
                                status: string;
                                /** Format: date-time */
                                updated_at: string;
                                /** @description Attribute paths the user proved to own with a mailed code or link, and when (e.g. `{"email": "2026-…"}`) */
                                verified?: {
                                    [key: string]: string;
                                };
                            };
                            /** @description The user schema the attributes satisfy (as given on creation) */
                            schema: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/users/{user_id}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Audit trail of x-audit attributes and password changes (values are never recorded) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    page_token?: string;
                };
                header?: never;
                path: {
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            events: {
                                /** @description `set`, `changed` or `removed` */
                                action: string;
                                /** @description `admin`, `project_secret`, `operator:<user id>`, `service_key:<client id>`, `self`, `system` */
                                actor: string;
                                /** @description Dotted attribute path, or `password` */
                                attribute: string;
                                /** Format: date-time */
                                created_at: string;
                                id: string;
                            }[];
                            next_page_token?: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{user_id}/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a user's sign-in credentials of every method (no secrets, hashes or keys) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            credentials: {
                                /** Format: date-time */
                                created_at: string;
                                /** @description The credential id (what DELETE takes); for passkeys not the WebAuthn credential ID */
                                id: string;
                                /** @description Last successful sign-in with it (passkeys); null when never recorded */
                                last_used_at: string | null;
                                /** @description `password`, `passkey`... */
                                method: string;
                                /** @description A label (passkeys named at registration); null when none */
                                name: string | null;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{user_id}/credentials/{credential_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove one of a user's credentials (the last one too); audited */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    credential_id: string;
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{user_id}/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a user's password (policy-checked, stored as argon2id) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        password: string;
                    };
                };
            };
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{user_id}/recovery_link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail the user a one-time link (1 hour) that signs them in and opens their settings, to set a new password */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    user_id: string;
                };
                cookie?: never;
            };
            /** @description Optional: a POST without a body sends the English mail */
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The language of the mail (default en) */
                        language?: "en" | "de";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            expires_at: string;
                            /** @description The user's own stored e-mail address the link was mailed to */
                            sent_to: string;
                        };
                    };
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error: a stable code, a human message and structured details. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
                            details: {
                                [key: string]: unknown;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{user_id}/unlock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Lift the password lock-out (and the "disabled until reset" state) of every identifier of the user */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (`req.invalid` and domain codes) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing or invalid credentials (`auth.unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The credential lacks the scope (`auth.forbidden`) or the request is cross-site (`auth.csrf_invalid`) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not found, also for resources of another project */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body larger than 1 MiB (`req.too_large`) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Body in a content type the route does not read (`req.unsupported_media_type`) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited (`auth.rate_limited`) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Internal error (`internal`) */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Database unreachable (`unavailable`) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        /** @description Every error: a stable code, a human message and structured details. */
        ErrorBody: {
            /** @enum {string} */
            code: "asset.not_found" | "att.already_handed_off" | "att.invalid_request" | "att.invalid_state" | "att.not_completed" | "att.not_found" | "auth.csrf_invalid" | "auth.forbidden" | "auth.password_policy" | "auth.rate_limited" | "auth.unauthorized" | "client.not_found" | "cred.not_found" | "enc_key.decrypt_failed" | "flow.code_exhausted" | "flow.completed" | "flow.expired" | "flow.invalid_action" | "flow.invalid_credentials" | "flow.not_found" | "flow.sso_failed" | "flow.validation_failed" | "flowdef.in_use" | "flowdef.invalid" | "flowdef.last_active" | "flowdef.not_found" | "internal" | "key.not_found" | "link.invalid" | "oauth.access_denied" | "oauth.authorization_pending" | "oauth.expired_token" | "oauth.insufficient_scope" | "oauth.invalid_client" | "oauth.invalid_grant" | "oauth.invalid_request" | "oauth.invalid_scope" | "oauth.invalid_target" | "oauth.invalid_token" | "oauth.slow_down" | "oauth.unauthorized_client" | "oauth.unsupported_grant_type" | "oauth.unsupported_response_type" | "oauth.unsupported_token_type" | "operator.last_instance_admin" | "operator.role_not_found" | "proj.not_found" | "proj.system_project" | "req.headers_too_large" | "req.idempotency_conflict" | "req.invalid" | "req.method_not_allowed" | "req.precondition_failed" | "req.timeout" | "req.too_large" | "req.unsupported_media_type" | "route.not_found" | "saml.domain_taken" | "saml.not_found" | "sch.already_exists" | "sch.invalid" | "sch.not_found" | "sess.invalid_ttl" | "sess.not_found" | "sso.not_found" | "team.already_exists" | "team.in_use" | "team.not_found" | "unavailable" | "user.already_exists" | "user.invalid" | "user.no_address" | "user.not_found" | "webhook.delivery_not_found" | "webhook.not_found";
            details: {
                [key: string]: unknown;
            };
            message: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
