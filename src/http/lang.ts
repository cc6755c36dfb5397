/** Sets Content-Language (and Vary) on every response from the negotiated label language. */
import { Elysia } from 'elysia';
import { contextOf } from './context';

/** Elysia plugin: negotiates the language once per request in onRequest. */
export function langPlugin() {
  return new Elysia({ name: 'lang' }).onRequest(function negotiate({ request, set }) {
    set.headers['content-language'] = contextOf(request).lang;
    set.headers.vary = 'Accept-Language';
  });
}
