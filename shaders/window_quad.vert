#version 330 core
// The window's fullscreen triangle (no vertex buffer), its uv for the passes below.
out vec2 uv;
void main() {
    // one triangle that covers the screen: no vertex buffer needed
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    uv = p;
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
