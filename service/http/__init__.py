"""HTTP plumbing every domain shares: strict decoding, problems (RFC 9457), conditional
reads, HEAD, CORS, rate limits, credentials in headers, the OpenAPI document and static
files. No game rule and no domain logic lives here."""
