# syntax=docker/dockerfile:1
# The base of both stages. Only a machine that cannot reach a registry names another: the
# image check (loadtests/image_check.py) passes a stand-in made from Debian's packages.
ARG PYTHON_IMAGE=python:3.11-slim

# Build stage: compile the Cython core into a wheel (the same command the tests run).
FROM ${PYTHON_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY core ./core
COPY service ./service
RUN python -m pip wheel --no-deps --wheel-dir /dist .

# Runtime stage: only the wheel and its runtime dependencies, run as a non-root user.
FROM ${PYTHON_IMAGE}
COPY --from=build /dist /dist
RUN python -m pip install --no-cache-dir /dist/*.whl && rm -rf /dist \
 && useradd --create-home --uid 10001 crab
USER crab
WORKDIR /home/crab
# Every setting is an environment variable (see docs/configuration.md); these suit a container.
# The metrics listen apart from the API (docs/configuration.md): publish 8000 to clients,
# and 9464 only to the network the monitoring scrapes from.
ENV HOST=0.0.0.0 \
    PORT=8000 \
    WORKERS=1 \
    METRICS_HOST=0.0.0.0 \
    METRICS_PORT=9464 \
    PYTHONUNBUFFERED=1
EXPOSE 8000 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/health' % os.environ.get('PORT', '8000'), timeout=2)"]
CMD ["crab-service"]
