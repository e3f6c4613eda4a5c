// A fullscreen triangle from gl_VertexID alone: no vertex buffer.
// (The #version line is prepended by anabasis.picture.render.)
// The pixel's ray is linear in its place on the screen, so it is made at the corners and
// interpolated: v_dir (slice coordinates) and v_rd (4D, u_basis * v_dir), both unnormalised;
// the fragment shader scales both by one inversesqrt.
uniform mat4 u_basis;
uniform vec3 u_fwd;
uniform vec3 u_right;
uniform vec3 u_up;
uniform float u_tan;
uniform vec2 u_resolution;
noperspective out vec3 v_dir;
noperspective out vec4 v_rd;
void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    vec2 clip = corner * 2.0 - 1.0;
    gl_Position = vec4(clip, 0.0, 1.0);
    vec2 ndc = vec2(clip.x * u_resolution.x / u_resolution.y, clip.y);
    v_dir = u_fwd + ndc.x * u_tan * u_right + ndc.y * u_tan * u_up;
    v_rd = u_basis * vec4(v_dir, 0.0);
}
