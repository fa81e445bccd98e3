# nginx (Debian's `nginx`) balancing between Tessera servers on loopback: for scripts/cluster and the tests
# through the balancer (TesseraTestSupport's TestBalancer writes its configuration with this very function).
#
#   write_balancer_config DIR PORT UPSTREAM_PORT...   writes DIR/nginx.conf: listen on 127.0.0.1:PORT, every
#                                                     file nginx writes inside DIR
#   start_balancer DIR                                starts nginx with it (BALANCER_PID)
#   stop_balancer                                     stops it
#
# What Tessera needs of a balancer: server-sent events pass unbuffered (`proxy_buffering off`) over HTTP/1.1
# with a read timeout longer than the heartbeat; uploads are streamed (`proxy_request_buffering off`) and
# may be as large as TESSERA_MAX_IMAGE_BYTES; a server that does not answer is tried no more for a while.

write_balancer_config() {
    local dir=$1 port=$2
    shift 2
    mkdir -p "$dir/temp"
    {
        # Workers run as root only when we are root (tests in a container); nginx refuses `user` otherwise.
        [ "$(id -u)" -eq 0 ] && echo "user root;"
        cat <<CONF
worker_processes 2;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $dir/temp/body;
    proxy_temp_path $dir/temp/proxy;
    fastcgi_temp_path $dir/temp/fastcgi;
    uwsgi_temp_path $dir/temp/uwsgi;
    scgi_temp_path $dir/temp/scgi;
    upstream tessera {
CONF
        for upstream in "$@"; do
            echo "        server 127.0.0.1:$upstream max_fails=1 fail_timeout=5s;"
        done
        cat <<CONF
        keepalive 32;
        keepalive_timeout 50s;
    }
    server {
        listen 127.0.0.1:$port;
        client_max_body_size 64m;
        location / {
            proxy_pass http://tessera;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_buffering off;
            proxy_request_buffering off;
            proxy_read_timeout 1h;
            # A request that failed on one server may be sent to the other only if it changed nothing there.
            proxy_next_upstream error timeout http_502 http_503;
            proxy_next_upstream_tries 2;
        }
    }
}
CONF
    } >"$dir/nginx.conf"
}

start_balancer() {
    local dir=$1
    /usr/sbin/nginx -t -q -p "$dir" -c "$dir/nginx.conf" -g "daemon off;" || return 1
    /usr/sbin/nginx -p "$dir" -c "$dir/nginx.conf" -g "daemon off;" &
    BALANCER_PID=$!
}

stop_balancer() {
    [ -n "${BALANCER_PID:-}" ] || return 0
    kill "$BALANCER_PID" 2>/dev/null || true
    wait "$BALANCER_PID" 2>/dev/null || true
    unset BALANCER_PID
}
