// A fullscreen triangle from gl_VertexID alone: no vertex buffer.
// (The #version line is prepended by anabasis.render.)
void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
