import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { NonceContext } from "~/lib/nonce";
import { noteServerError } from "../server/http/disk-full.server";
import { isConsolePath } from "../server/http/remix-handler";
import { log } from "../server/log.server";

const ABORT_DELAY = 5_000;

/** Errors thrown by loaders and actions: logged once; a full disk marks the answer 507. */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  noteServerError(error);
};

/**
 * A document's React tree: the app under Remix's server component, with the request's CSP nonce
 * (also rendered by the bench's bare-React reference, tests/perf/bare-react.mjs).
 */
export function documentTree(context: EntryContext, url: string, nonce: string) {
  return (
    <NonceContext.Provider value={nonce}>
      <RemixServer context={context} url={url} abortDelay={ABORT_DELAY} nonce={nonce} />
    </NonceContext.Provider>
  );
}

/** What `renderToString` writes for a Suspense boundary it could not finish (left to the browser). */
const UNFINISHED_BOUNDARY = "<!--$!-->";

/**
 * Renders the whole document before answering: the pages load their data up front, so there is
 * nothing to stream, and one buffer is compressed in one pass.
 *
 * The data for hydration (single fetch's turbo-stream) is read first, so the document renders in
 * one synchronous `renderToString` pass (decision 030): about a third cheaper than a
 * `renderToPipeableStream` into a stream. Something that still suspends (a lazy component's first
 * use) or fails inside a Suspense boundary leaves an unfinished boundary; that document is rendered
 * again the streaming way, which waits for everything and logs what failed.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = typeof loadContext.nonce === "string" ? loadContext.nonce : "";
  // The console is an app that needs its script at once; the site's pages paint first.
  const scripts = isConsolePath(new URL(request.url).pathname)
    ? (html: string) => html
    : (html: string) => scriptsAfterFirstPaint(html, nonce);
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const handoff = await readHandoff(remixContext);
  const tree = documentTree(remixContext, request.url, nonce);
  if (handoff) {
    renderFrom(remixContext, handoff);
    const html = renderToString(tree);
    if (!html.includes(UNFINISHED_BOUNDARY))
      // A Buffer, encoded once (a string body would be copied as well-formed UTF-16 first).
      return new Response(Buffer.from(`<!DOCTYPE html>${scripts(html)}`), {
        headers: responseHeaders,
        status: responseStatusCode,
      });
    // Rendered again from the start, with the hydration data as read.
    renderFrom(remixContext, handoff);
  }
  return renderStreaming(tree, responseStatusCode, responseHeaders, nonce, scripts);
}

/** Remix's module preloads (one run of links) and its module script, as `<Scripts>` writes them. */
const MODULE_PRELOADS = /(?:<link rel="modulepreload" href="[^"<>]+"\/>)+/;
const MODULE_SCRIPT = /<script nonce="[^"]*" type="module" async="">[^<]*<\/script>/;

/**
 * The site's JavaScript is fetched and run once the page has been painted (decision 031): Remix's
 * module preloads and module script are wrapped in inert templates, and a small script puts them
 * back where they were after the first frame (at once in a hidden tab). The page paints from its
 * HTML and stylesheet alone, and nothing changes for hydration: by then the DOM is the one
 * Remix wrote (the helper removes itself). Remix's data scripts are left where they are. A
 * document without both (an error page rendered without `<Scripts>`) is left as it is.
 */
function scriptsAfterFirstPaint(html: string, nonce: string): string {
  const preloads = MODULE_PRELOADS.exec(html);
  const script = MODULE_SCRIPT.exec(html);
  if (!preloads || !script || script.index < preloads.index) return html;
  const attr = nonce ? ` nonce="${nonce}"` : "";
  const putBack =
    `<script${attr}>(function(){var me=document.currentScript;` +
    `function run(){document.querySelectorAll("template[data-after-paint]").forEach(function(t){t.replaceWith(t.content.cloneNode(true))})}` +
    `if(me)me.remove();if(document.visibilityState==="hidden")run();else requestAnimationFrame(function(){setTimeout(run)})})()</script>`;
  const scriptEnd = script.index + script[0].length;
  return (
    html.slice(0, preloads.index) +
    `<template data-after-paint>${preloads[0]}</template>` +
    html.slice(preloads.index + preloads[0].length, script.index) +
    `<template data-after-paint>${script[0]}</template>${putBack}` +
    html.slice(scriptEnd)
  );
}

type Chunk = Promise<void> & { result?: { done: boolean; value: string } };

/**
 * Reads single fetch's hydration stream to its end, as Remix's StreamTransfer keeps it
 * (`renderMeta.streamCache`: one settled entry per read, its text decoded), so that the render
 * finds every chunk already there. Null when there is no stream (nothing to hand over).
 */
async function readHandoff(context: EntryContext): Promise<Record<number, Chunk> | null> {
  const stream = context.serverHandoffStream;
  if (!stream) return null;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const cache: Record<number, Chunk> = {};
  for (let i = 0; ; i++) {
    const { done, value } = await reader.read();
    const chunk: Chunk = Promise.resolve();
    chunk.result = { done, value: decoder.decode(value, { stream: true }) };
    cache[i] = chunk;
    if (done) return cache;
  }
}

/**
 * Prepares one render from the read chunks: RemixServer takes a reader of the stream at each
 * render (and never reads it, every chunk being in the cache), so each render gets a stream of
 * its own, already closed.
 */
function renderFrom(context: EntryContext, cache: Record<number, Chunk>): void {
  context.renderMeta = { streamCache: cache };
  context.serverHandoffStream = new ReadableStream({ start: (controller) => controller.close() });
}

function renderStreaming(
  tree: JSX.Element,
  status: number,
  headers: Headers,
  nonce: string,
  scripts: (html: string) => string,
) {
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const body = new PassThrough();
    body.on("data", (chunk: Buffer) => chunks.push(chunk));
    body.on("end", () => {
      clearTimeout(timer);
      resolve(new Response(Buffer.from(scripts(Buffer.concat(chunks).toString())), { headers, status }));
    });
    const { pipe, abort } = renderToPipeableStream(tree, {
      nonce,
      onAllReady() {
        pipe(body);
      },
      onShellError(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        log.error({ err: error }, `[render] ${error instanceof Error ? error.message : String(error)}`);
      },
    });
    const timer = setTimeout(abort, ABORT_DELAY);
  });
}
