"""Typed exceptions: one class per protocol error code, and the client's own failures."""

from __future__ import annotations


class SyncError(Exception):
    """Anything this client raises."""


class DaemonUnreachable(SyncError):
    """Nothing accepts connections at the socket path."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"cannot reach the daemon at {path}: {reason}")
        self.path = path
        self.reason = reason


class ConnectionClosed(SyncError):
    """The connection ended (closed by the client, or lost and not reconnected)."""


class ProtocolViolation(SyncError):
    """The daemon sent something this client cannot understand."""


class ServerError(SyncError):
    """An `error` reply. `code` is the protocol's error code, `message` its sentence."""

    code = ""

    def __init__(self, code: str, message: str, reply: dict | None = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.reply = reply or {}


class FrameTooLarge(ServerError):
    """`frame_too_large`: a frame header announced more than the daemon's maximum."""


class InvalidFrame(ServerError):
    """`invalid_frame`: a frame header announced 0 bytes."""


class HandshakeRequired(ServerError):
    """`handshake_required`: the first message was not a valid hello."""


class UnsupportedProtocol(ServerError):
    """`unsupported_protocol`: `supported` lists the versions the daemon speaks."""

    @property
    def supported(self) -> list[int]:
        return list(self.reply.get("supported", []))


class InvalidJSON(ServerError):
    """`invalid_json`: a payload that is not one strict JSON text."""


class InvalidMessage(ServerError):
    """`invalid_message`: not an object, or a field missing or of the wrong type."""


class UnknownMessage(ServerError):
    """`unknown_message`: a message type the daemon does not know."""


class UnknownAction(ServerError):
    """`unknown_action`: no action or side effect has the name."""


class InvalidPayload(ServerError):
    """`invalid_payload`: the payload does not decode as that action or side effect."""


class Rejected(ServerError):
    """`rejected`: a domain rule refused the action, or the side effect threw."""


class UnknownViewModel(ServerError):
    """`unknown_view_model`: no view model has the name."""


class InvalidParams(ServerError):
    """`invalid_params`: the params do not decode as that view model's."""


class UnknownSubscription(ServerError):
    """`unknown_subscription`: not a subscription of this connection."""


class TooManySubscriptions(ServerError):
    """`too_many_subscriptions`: the connection holds as many as the daemon allows."""


class TooManySideEffects(ServerError):
    """`too_many_side_effects`: the connection (or the daemon) runs as many as it allows."""


class Cancelled(ServerError):
    """`cancelled`: the side effect was cancelled before it finished."""


class StorageUnavailable(ServerError):
    """`storage_unavailable`: the journal could not be written or read; nothing was applied."""


class FutureVersion(ServerError):
    """`future_version`: a `get` asked for a version above the current one."""


class ReplayLimit(ServerError):
    """`replay_limit`: rebuilding that version would replay more than the daemon's limit."""


class VersionUnavailable(ServerError):
    """`version_unavailable`: the journal no longer holds what rebuilding needs."""


class TooManyRebuilds(ServerError):
    """`too_many_rebuilds`: the daemon is rebuilding as many versions as it takes."""


class StaleSequence(ServerError):
    """`stale_sequence`: a numbered dispatch the daemon can no longer judge; not applied now."""


class PermissionDenied(ServerError):
    """`permission_denied`: this user may not use the daemon."""


class WrongApp(ServerError):
    """`wrong_app`: the daemon serves another app; the message names both."""


ERRORS: dict[str, type[ServerError]] = {
    "frame_too_large": FrameTooLarge, "invalid_frame": InvalidFrame, "handshake_required": HandshakeRequired,
    "unsupported_protocol": UnsupportedProtocol, "invalid_json": InvalidJSON, "invalid_message": InvalidMessage,
    "unknown_message": UnknownMessage, "unknown_action": UnknownAction, "invalid_payload": InvalidPayload,
    "rejected": Rejected, "unknown_view_model": UnknownViewModel, "invalid_params": InvalidParams,
    "unknown_subscription": UnknownSubscription, "too_many_subscriptions": TooManySubscriptions,
    "too_many_side_effects": TooManySideEffects, "cancelled": Cancelled, "storage_unavailable": StorageUnavailable,
    "future_version": FutureVersion, "replay_limit": ReplayLimit, "version_unavailable": VersionUnavailable,
    "too_many_rebuilds": TooManyRebuilds, "stale_sequence": StaleSequence, "permission_denied": PermissionDenied,
    "wrong_app": WrongApp,
}


def error_from(reply: dict) -> ServerError:
    """The exception an `error` reply stands for (`ServerError` itself for a code this client
    does not know: later daemons may add codes)."""
    code = str(reply.get("code", ""))
    return ERRORS.get(code, ServerError)(code, str(reply.get("message", "")), reply)
