/**
 * The service's typed errors. Each carries the HTTP status and the spec's message;
 * the error-mapper middleware is the one place that turns them into the envelope.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
    this.name = new.target.name;
  }
}

export class BadRequest extends ApiError {
  constructor(message: string) {
    super(400, message);
  }
}

export class Unauthorized extends ApiError {
  constructor(message: string) {
    super(401, message);
  }
}

export class Forbidden extends ApiError {
  constructor(message: string) {
    super(403, message);
  }
}

export class NotFound extends ApiError {
  constructor(message: string) {
    super(404, message);
  }

  /** The spec's one answer for a record that does not exist and for one of another user: the two are not told apart. */
  static notLinked(subject: string): NotFound {
    return new NotFound(`${subject} not found or not linked to this api key`);
  }
}

export class MethodNotAllowed extends ApiError {
  constructor(message: string) {
    super(405, message);
  }
}

export class Conflict extends ApiError {
  constructor(message: string) {
    super(409, message);
  }
}

export class PayloadTooLarge extends ApiError {
  constructor(message: string) {
    super(413, message);
  }
}

/**
 * A valid request whose answer would pass Lambda's or API Gateway's limit (docs/paging.md): 422, not 413, which
 * the service answers for a request body that is too large.
 */
export class AnswerTooLarge extends ApiError {
  constructor() {
    super(422, 'answer too large: narrow the date range or filter, or page with limit and cursor');
  }
}

export class Throttled extends ApiError {
  constructor(message: string) {
    super(429, message);
  }
}

export class ProviderFailed extends ApiError {
  constructor(message: string) {
    super(502, message);
  }
}

export class ServiceUnavailable extends ApiError {
  constructor(message: string) {
    super(503, message);
  }
}
