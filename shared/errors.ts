/**
 * The service's typed errors. Each carries the HTTP status and the spec's message;
 * the error-mapper middleware is the one place that turns them into the envelope. Like Powertools' errors they
 * take `ErrorOptions`: an error that stands for a lower one (a cancelled transaction, a provider's failure) keeps
 * it as `cause`, which the log shows and the answer never does.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
    this.name = new.target.name;
  }
}

/** The base of one status's error class: the status fixed, the message and `ErrorOptions` given. */
const withStatus = (status: number) =>
  class extends ApiError {
    constructor(message: string, options?: ErrorOptions) {
      super(status, message, options);
    }
  };

export class BadRequest extends withStatus(400) {}

export class Unauthorized extends withStatus(401) {}

export class Forbidden extends withStatus(403) {}

export class NotFound extends withStatus(404) {
  /** The spec's one answer for a record that does not exist and for one of another user: the two are not told apart. */
  static notLinked(subject: string, options?: ErrorOptions): NotFound {
    return new NotFound(`${subject} not found or not linked to this api key`, options);
  }
}

export class MethodNotAllowed extends withStatus(405) {}

export class Conflict extends withStatus(409) {}

export class PayloadTooLarge extends withStatus(413) {}

/**
 * A valid request whose answer would pass Lambda's or API Gateway's limit (docs/paging.md): 422, not 413, which
 * the service answers for a request body that is too large.
 */
export class AnswerTooLarge extends withStatus(422) {
  constructor(options?: ErrorOptions) {
    super('answer too large: narrow the date range or filter, or page with limit and cursor', options);
  }
}

export class Throttled extends withStatus(429) {}

export class ProviderFailed extends withStatus(502) {}

export class ServiceUnavailable extends withStatus(503) {}
