"""The service's settings: defaults that fit the engine, values read from the environment."""

from __future__ import annotations

import os

from graph.settings import load_settings
from service.settings import NETWORK_BOUND_WORKERS, load_service_settings


def test_defaults_listen_on_loopback_without_redis() -> None:
    settings = load_service_settings({})
    assert (settings.host, settings.port, settings.redis_url, settings.api_token) == (
        "127.0.0.1",
        "8000",
        "",
        "",
    )


def test_auto_workers_follow_what_bounds_a_turn() -> None:
    auto = load_service_settings({})
    offline = load_settings({"CHAT_PROVIDER": "offline"})
    remote = load_settings({"OPENAI_API_KEY": "sk-x"})
    assert auto.worker_count(offline) == (os.cpu_count() or 1)
    assert auto.worker_count(remote) == NETWORK_BOUND_WORKERS
    assert load_service_settings({"SERVICE_WORKERS": "3"}).worker_count(remote) == 3
    assert load_service_settings({"SERVICE_WORKERS": "0"}).worker_count(remote) == 1
