"""Request bodies decoded strictly, straight from the bytes into the handler's struct.

Litestar decodes JSON into Python objects, then converts them to the handler's `data` type
in msgspec's lax mode (where `"2"` is 2). The API promises strict decoding, so this request
class decodes the body once with msgspec in strict mode into that type; Litestar's
conversion then receives the finished struct and passes it through unchanged.
"""

from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions import ClientException, ValidationException
from litestar.types import Empty


class MalformedBody(ClientException):
    """A body that is not JSON, or is nested too deeply to be any request of this API."""


class StrictRequest(Request):
    async def json(self) -> Any:
        if self._json is Empty:
            self._json = self._decode(await self.body())
        return self._json

    def _decode(self, body: bytes) -> Any:
        field = self.route_handler.parsed_data_field
        if field is None:
            raise MalformedBody("this operation takes no request body")
        if not body:
            raise MalformedBody("the request body is empty: send a JSON object")
        try:
            return msgspec.json.decode(body, type=field.annotation, strict=True)
        except msgspec.ValidationError as error:
            raise ValidationException(extra=[{"message": str(error)}]) from None
        except msgspec.DecodeError as error:
            raise MalformedBody(f"the request body is not valid JSON: {error}") from None
        except RecursionError:
            raise MalformedBody("the request body is nested too deeply") from None
