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

export class BadRequest extends ApiError {
  constructor(message: string, options?: ErrorOptions) {
    super(400, message, options);
  }
}

export class Unauthorized extends ApiError {
  constructor(message: string, options?: ErrorOptions) {
    super(401, message, options);
  }
}

export class Forbidden extends ApiError {
  constructor(message: string, options?: ErrorOptions) {
    super(403, message, options);
  }
}

export class NotFound extends ApiError {
  constructor(message: string, options?: ErrorOptions) {
    super(404, message, options);
  }

  /** The spec's one answer for a record that does not exist and for one of another user: the two are not told apart. */
  static notLinked(subject: string, options?: ErrorOptions): NotFound {
    return new NotFound(`${subject} not found or not linked to this api key`, options);
  }
}

export class MethodNotAllowed extends ApiError {
  constructor(message: string, options?: ErrorOptions) {
    super(405, message, options);
  }
}

export class Conflict extends ApiError {
  constructor(message: string, options?: ErrorOptions) {
    super(409, message, options);
  }
}

export class PayloadTooLarge extends ApiError {
  constructor(message: string, options?: ErrorOptions) {
    super(413, message, options);
  }
}

export class Throttled extends ApiError {
  constructor(message: string, options?: ErrorOptions) {
    super(429, message, options);
  }
}

export class ProviderFailed extends ApiError {
  constructor(message: string, options?: ErrorOptions) {
    super(502, message, options);
  }
}

export class ServiceUnavailable extends ApiError {
  constructor(message: string, options?: ErrorOptions) {
    super(503, message, options);
  }
}
