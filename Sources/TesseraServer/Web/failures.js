// What the page says when a service could not answer: its own calm words per error code. The API's
// `message` is for whoever runs the server (it may name a setting); a person searching cannot act on that.

const WORDS = {
    unreachable: (name) => `Couldn’t reach ${name}.`,
    timeout: (name) => `${name} took too long to answer.`,
    rate_limited: (name) => `${name} is busy right now.`,
    service_error: (name) => `${name} is having trouble right now.`,
    bad_response: (name) => `${name} sent an answer Tessera could not read.`,
    invalid_key: (name) => `${name} is not set up correctly on this server.`,
    source_rejected: (name) => `${name} could not run this search.`,
};

/** One line for a service that failed with `code` (the API's `error.code`). */
export function failureText(code, name) {
    return (WORDS[code] ?? ((n) => `${n} could not answer.`))(name);
}
