import { parentPort } from 'node:worker_threads';
import { parseAnswer } from './answers.js';

/**
 * The thread shadow mode parses answers in (parse-off-loop.ts): each message is one answer's text,
 * parsed as the comparison reads it, and sent back with its id; a text that fails to parse is sent
 * back as the error's message.
 */
parentPort?.on('message', ({ id, text, contentType }: { id: number; text: string; contentType: string | undefined }) => {
  try {
    parentPort!.postMessage({ id, answer: parseAnswer(text, contentType) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
