/** PHP's http_build_query as locutus ports it (the package ships no types). */
declare module 'locutus/php/url/http_build_query.js' {
  export default function httpBuildQuery(
    data: object,
    numericPrefix?: string,
    argSeparator?: string,
    encType?: 'PHP_QUERY_RFC1738' | 'PHP_QUERY_RFC3986',
  ): string;
}
