import type { FastifyReply } from 'fastify';

/**
 * Work that must not delay an answer (composing a mail): it starts once the response is finished,
 * or closed early by the client, whichever comes first, and exactly once.
 */
export function afterAnswerOf(reply: FastifyReply): (task: () => void) => void {
  return (task) => {
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      task();
    };
    if (reply.raw.writableFinished || reply.raw.destroyed) return start();
    reply.raw.once('finish', start);
    reply.raw.once('close', start);
  };
}
